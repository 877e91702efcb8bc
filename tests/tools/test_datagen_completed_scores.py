"""Datagen keeps the score of a completed search (datagen/game.py): its node
count is a soft limit (the core's soft_nodes: no new iteration past it),
and the kept score is the last completed iteration's (completed_score),
never a stopped iteration's partial line. A depth-limited search, which
always completes its last iteration, is the oracle: single-threaded
searches from a fresh table are deterministic, so a node-limited search is
that same search cut short."""
import pytest

from engine._core import Position, Search
from engine.tools.nnue.datagen.game import (HARD_NODES, GameSettings, completed_score, play_game,
                                            search_limits, search_score)
from engine.tools.nnue.datagen.adjudication import AdjudicationRules, Adjudicator
from engine.tools.nnue.datagen.run import RunConfig
from engine.tools.nnue.marlinformat import decode

import chess

FENS = [
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9",
    "r2q1rk1/pp1bbppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R1BQ1RK1 w - - 0 10",
    "8/5pk1/6p1/3P4/1p2Q3/1Pq3P1/5P1P/6K1 w - - 0 40",
    "r1b2rk1/2q1bppp/p2p1n2/np2p3/3PP3/5N1P/PPBN1PP1/R1BQR1K1 b - - 0 13",
    "2r3k1/pp3ppp/4p3/3n4/3P4/P4N2/1P3PPP/2R3K1 w - - 0 25",
    "rnbqkb1r/pp3ppp/4pn2/2pp4/3P4/2P1PN2/PP3PPP/RNBQKB1R w KQkq - 0 5",
    "4r1k1/1p3pp1/p1p4p/3n4/3P4/1P3N1P/P4PP1/4R1K1 w - - 0 30",
    "r3k2r/pbppqppp/1pn2n2/4p3/2B1P3/2NP1N2/PPP2PPP/R2QK2R w KQkq - 4 8",
]


def searched(fen, limits):
    infos = []
    Search().go(Position(fen), limits, infos.append)
    return infos


def full_depth_score(fen, depth):
    return searched(fen, {"depth": depth})[-1]["score"]


def kept_depth(infos):
    """The depth of the line completed_score chose."""
    score = completed_score(infos)
    exact = [i for i in infos if i.get("bound") is None and i.get("multipv", 1) == 1]
    # a completed iteration's line is never the core's last one alone (the
    # last line repeats it when the search stopped between iterations)
    return next(i["depth"] for i in reversed(exact[:-1]) if i["score"] == score)


@pytest.mark.parametrize("nodes", [3000, 5000, 9000])
def test_the_kept_score_is_that_of_a_search_completed_to_its_depth(nodes):
    for fen in FENS:
        infos = searched(fen, {"nodes": nodes})
        assert completed_score(infos) == full_depth_score(fen, kept_depth(infos)), fen


def test_the_old_rule_kept_partial_iterations_on_these_positions():
    # That the new rule matters: at datagen's 5,000 nodes some of these
    # positions' last lines are a stopped iteration whose score a completed
    # search to the same depth does not give.
    differs = [fen for fen in FENS
               if search_score(infos := searched(fen, {"nodes": 5000}))
               != full_depth_score(fen, infos[-1]["depth"])]
    assert differs


def test_the_soft_node_limit_ends_the_search_on_a_completed_iteration():
    for fen in FENS:
        infos = searched(fen, {"soft_nodes": 5000, "nodes": HARD_NODES * 5000})
        last, before = infos[-1], infos[-2]
        # the last line repeats the last completed iteration: no partial one
        assert last["depth"] == before["depth"] and last["score"] == before["score"]
        # past the soft limit, unless the search ran out of depths (MAX_SEARCH_DEPTH,
        # which a drawn rook ending here reaches in 3,158 nodes)
        assert last["nodes"] >= 5000 or last["depth"] == 120
        # and the iteration before it had not reached the limit
        assert all(i["nodes"] < 5000 for i in infos if i["depth"] < last["depth"])
        assert completed_score(infos) == last["score"] == full_depth_score(fen, last["depth"])


def test_datagen_searches_with_the_soft_limit_unless_told_the_old_rule():
    assert search_limits(GameSettings(nodes=5000)) == {"soft_nodes": 5000, "nodes": HARD_NODES * 5000}
    assert search_limits(GameSettings(nodes=5000, scores="last")) == {"nodes": 5000}


def test_a_search_stopped_between_iterations_keeps_its_last_line():
    infos = searched(FENS[0], {"depth": 7})
    assert completed_score(infos) == infos[-1]["score"] == full_depth_score(FENS[0], 7)


def test_synthetic_lines():
    line = lambda depth, cp, bound=None: {"depth": depth, "score": ("cp", cp), "bound": bound, "multipv": 1}
    # stopped inside depth 9: its partial line (a failed-low first move) is not kept
    assert completed_score([line(7, 20), line(8, 25), line(9, -40, "upper"), line(9, -40)]) == ("cp", 25)
    # stopped between iterations: the last line repeats depth 8
    assert completed_score([line(7, 20), line(8, 25), line(8, 25)]) == ("cp", 25)
    # only one line: it is all there is
    assert completed_score([line(1, 5)]) == ("cp", 5)
    assert completed_score([]) == ("cp", 0)


def test_the_rule_is_a_setting_that_old_runs_resume_with():
    assert GameSettings().scores == "completed"
    with pytest.raises(ValueError, match="scores"):
        GameSettings(scores="best")
    # a run made before the rule keeps its journal header: --scores last
    old = RunConfig(game=GameSettings(scores="last")).describe()
    new = RunConfig().describe()
    assert "scores=" not in old and new == old + " scores=completed"


class RecordingSearch(Search):
    """A Search that keeps every go's info lines, in order."""

    def __init__(self):
        self.searches = []

    def go(self, position, limits=None, on_info=None):
        infos = []
        self.searches.append((position.fen(), infos))
        assert "soft_nodes" in limits

        def both(info):
            infos.append(info)
            on_info(info)
        return super().go(position, limits, both)


def test_datagen_games_keep_completed_scores():
    search = RecordingSearch()
    record = play_game(search, chess.Board(FENS[3]), GameSettings(nodes=3000, skip_plies=0),
                       Adjudicator(AdjudicationRules(max_plies=16)))
    expected = {}
    for fen, infos in search.searches:
        kind, cp = completed_score(infos)
        board = chess.Board(fen)
        if kind == "cp":   # records keep White's view
            expected.setdefault((board.board_fen(), board.turn), set()).add(cp if board.turn else -cp)
    assert record.records
    for data in record.records:
        sample = decode(data)
        assert sample.score in expected[(sample.board.board_fen(), sample.board.turn)]
