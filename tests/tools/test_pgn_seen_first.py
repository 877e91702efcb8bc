"""benchmarks/pgn_seen_first.py: how many plies a game's loser went on
thinking it was not lost after the winner knew it was winning, on small
games worked out by hand."""
import importlib.util

from conftest import REPO
from scored_pgn import game

SPEC = importlib.util.spec_from_file_location("pgn_seen_first", REPO / "benchmarks" / "pgn_seen_first.py")
pgn_seen_first = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(pgn_seen_first)


# A (White) is sure from ply 3 (at ply 1 its +1.40 is short of 150; the run lasts to the
# end); B (Black) admits it from ply 6, three plies later. Material is all there, phase 24.
LATE = game("A", "B", "1-0", [("e4", "+1.40"), ("e5", "+0.30"), ("Nf3", "+1.60"), ("Nc6", "+0.20"),
                              ("Bc4", "+2.50"), ("Nf6", "-1.80"), ("Ng5", "+3.00"), ("d5", "-2.40")])
# B (White) loses and saw it first (ply 1), A (Black) only at ply 2: a lag of -1.
FIRST = game("B", "A", "0-1", [("f3", "-1.50"), ("e5", "+1.50"), ("g4", "-3.00"), ("Qh4#", "+M1")])
# A blunder: the loser never had a run of its own at -150 or below.
BLUNDER = game("A", "B", "1-0", [("e4", "+0.20"), ("e5", "+0.10"), ("Qh5", "+2.00"), ("Ke7", "+0.50")])


def test_lags_and_games_without_both_runs():
    found, unformed = pgn_seen_first.lags([LATE, FIRST, BLUNDER], 150)
    assert found == {"B": [(3, 24), (-1, 24)]}
    assert unformed == {"B": 1}


def test_the_report(tmp_path, capsys):
    path = tmp_path / "games.pgn"
    path.write_text("\n\n".join(str(g) for g in (LATE, FIRST, BLUNDER)) + "\n")
    assert pgn_seen_first.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "B as the loser: 2 games, lag median 1 plies, mean 1.0" in out
    assert "none in 1; phase when the winner saw it, median 24; 1 without both runs" in out
