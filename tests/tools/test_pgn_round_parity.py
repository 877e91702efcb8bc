"""benchmarks/pgn_round_parity.py: each engine's score split by the parity
of the Round tag (the halves `vireo match --shard K/2` plays), on a small
PGN whose answer is worked out by hand."""
import importlib.util

from conftest import REPO

SPEC = importlib.util.spec_from_file_location("pgn_round_parity", REPO / "benchmarks" / "pgn_round_parity.py")
pgn_round_parity = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(pgn_round_parity)

GAMES = """[Round "1"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 1-0\n
[Round "2"]\n[White "B"]\n[Black "A"]\n[Result "1/2-1/2"]\n\n1. e4 1/2-1/2\n
[Round "3"]\n[White "B"]\n[Black "A"]\n[Result "1-0"]\n\n1. e4 1-0\n
[Round "4"]\n[White "A"]\n[Black "B"]\n[Result "0-1"]\n\n1. e4 0-1\n
[Round "6"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 *\n
"""


def test_scores_split_by_round_parity(tmp_path, capsys):
    path = tmp_path / "games.pgn"
    path.write_text(GAMES)
    totals = pgn_round_parity.split(str(path))
    assert totals["A", "odd"] == [1.0, 2] and totals["B", "odd"] == [1.0, 2]
    assert totals["A", "even"] == [0.5, 2] and totals["B", "even"] == [1.5, 2]   # the unfinished game 6 is left out
    assert pgn_round_parity.main([str(path)]) == 0
    assert "A: odd 50.00% (2), even 25.00% (2)" in capsys.readouterr().out
