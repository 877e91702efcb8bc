"""benchmarks/pgn_decided.py: when a game was decided (the run of agreed
edges that lasted to its end) and how each engine scored once ahead or
behind, on small games whose answers can be worked out by hand."""
import importlib.util
import sys

import chess

from conftest import REPO
from scored_pgn import game

SPEC = importlib.util.spec_from_file_location("pgn_decided", REPO / "benchmarks" / "pgn_decided.py")
pgn_decided = importlib.util.module_from_spec(SPEC)
sys.modules["pgn_decided"] = pgn_decided     # its dataclass looks itself up there
SPEC.loader.exec_module(pgn_decided)


# A (White) sees its edge, B agrees from ply 4; the edge reaches 150 cp at ply 5 and holds to mate.
SCHOLAR = game("A", "B", "1-0", [("e4", "+0.20"), ("e5", "-0.10"), ("Bc4", "+0.30"), ("Nc6", "-2.00"),
                                 ("Qh5", "+3.00"), ("Nf6", "-M1"), ("Qxf7#", "+M1")])
# B (White) is 3 pawns up by both engines' account and is mated on the last move.
FOOL = game("B", "A", "0-1", [("f3", "+3.00"), ("e5", "-3.00"), ("g4", "+3.00"), ("Qh4#", "+M1")])
QUIET = game("A", "B", "1/2-1/2", [("Nf3", "+0.10"), ("Nf6", "-0.05"), ("Ng1", "+0.00"), ("Ng8", "0.00")])


def test_scores_are_read_from_the_movers_side_with_mates_as_large_numbers():
    assert pgn_decided.mover_score_cp("+0.84/18 0.917s") == 84
    assert pgn_decided.mover_score_cp("-1.50/9 0.1s, White resigns") == -150
    assert pgn_decided.mover_score_cp("-M3/20 0.100s") == -pgn_decided.MATE_CP
    assert pgn_decided.mover_score_cp("book") is None


def test_the_agreed_edge_is_the_smaller_score_when_both_engines_see_the_same_side_ahead():
    edges = pgn_decided.agreed_edges(SCHOLAR)
    assert edges.plies == [2, 3, 4, 5, 6, 7]
    # White's view: A +20 then +30 then +300, B +10 then +200 then mate for White.
    assert edges.edges == [10, 10, 30, 200, 300, pgn_decided.MATE_CP]
    assert pgn_decided.agreed_edges(FOOL).edges == [300, 300, 0]    # the engines disagree at the end


def test_a_game_is_decided_where_the_last_unbroken_run_of_edges_begins():
    edges = pgn_decided.GameEdges(plies=[10, 11, 12, 13, 14], edges=[200, 50, 200, 300, 400],
                                  phases=[20, 20, 18, 14, 12], last_ply=15, last_phase=12)
    assert pgn_decided.decided_at(edges, chess.WHITE, 150) == (12, 18)   # the dip at ply 11 restarts it
    assert pgn_decided.decided_at(edges, chess.WHITE, 250) == (13, 14)
    assert pgn_decided.decided_at(edges, chess.BLACK, 150) == (15, 12)   # never ahead: its last ply
    assert pgn_decided.decided_at(pgn_decided.agreed_edges(SCHOLAR), chess.WHITE, 150) == (5, 24)


def test_wins_losses_and_margins_are_split_per_engine():
    decided, margins, totals = pgn_decided.tally([SCHOLAR, FOOL, QUIET], edge_cp=150, margin_cp=100)
    assert totals["A"] == [3, 2.5] and totals["B"] == [3, 0.5]
    assert decided["A"]["plies 1-40"] == [2, 0] and decided["B"]["plies 1-40"] == [0, 2]
    assert decided["A"]["phase 17-24"] == [2, 0]
    assert decided["A"]["plies 41-80"] == [0, 0]
    # A was ahead in the scholar's game and behind in the fool's, and won both.
    assert margins["A"]["ahead"] == [1, 1.0] and margins["A"]["behind"] == [1, 1.0]
    assert margins["B"]["ahead"] == [1, 0.0] and margins["B"]["behind"] == [1, 0.0]
    assert margins["A"]["level throughout"] == [1, 0.5]


def test_the_command_prints_each_engines_split(tmp_path, capsys):
    path = tmp_path / "games.pgn"
    path.write_text("\n\n".join(str(g) for g in (SCHOLAR, FOOL, QUIET)) + "\n")
    assert pgn_decided.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "A: 3 games, score 83.3%" in out and "B: 3 games, score 16.7%" in out
    assert "    plies 1-40                 2       0    +2" in out
    assert "    ahead                      1  100.0%" in out
