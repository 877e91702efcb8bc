"""Resign and draw adjudication by score, and Syzygy adjudication."""
import chess
import chess.engine
import pytest

from conftest import shared_data
from engine.tools.match.adjudication import (AdjudicationError, Adjudicator, Tablebase, parse_draw,
                                       parse_resign)


def syzygy() -> str:
    return str(shared_data("syzygy"))


def white_pov(cp):
    return chess.engine.PovScore(chess.engine.Cp(cp), chess.WHITE)


def feed(adjudicator, board, white_cps, black_cps):
    """Alternate moves' scores (White's point of view) and return the verdict."""
    for w, b in zip(white_cps, black_cps):
        adjudicator.record(chess.WHITE, None if w is None else white_pov(w))
        adjudicator.record(chess.BLACK, None if b is None else white_pov(b))
    return adjudicator.verdict(board)


def test_resign_needs_both_engines_for_n_moves():
    rule = parse_resign(["movecount=3", "score=500"])
    board = chess.Board()
    # Each engine thinks it is winning: nobody resigns.
    assert feed(Adjudicator(rule, None, None), board, [600, 700, 800], [-600, -700, -800]) is None
    verdict = feed(Adjudicator(rule, None, None), board, [600, 700, 800], [650, 700, 900])
    assert verdict.result == "1-0" and "Black resigns" in verdict.reason
    # Black's engine disagrees once: no resignation.
    assert feed(Adjudicator(rule, None, None), board, [600, 700, 800], [650, 100, 900]) is None
    # Only two moves of agreement.
    assert feed(Adjudicator(rule, None, None), board, [600, 700], [650, 700]) is None
    # A move without a score breaks the run.
    assert feed(Adjudicator(rule, None, None), board, [600, None, 800, 800], [650, 700, 900, 900]) is None


def test_resign_for_white():
    verdict = feed(Adjudicator(parse_resign(["movecount=2", "score=300"]), None, None), chess.Board(),
                   [-400, -500], [-350, -900])
    assert verdict.result == "0-1" and "White resigns" in verdict.reason


def test_draw_after_move_number():
    rule = parse_draw(["movenumber=40", "movecount=4", "score=10"])
    early = chess.Board()
    late = chess.Board()
    late.fullmove_number = 40
    calm = ([5, -3, 0, 8], [-2, 0, 4, 10])
    assert feed(Adjudicator(None, rule, None), early, *calm) is None
    verdict = feed(Adjudicator(None, rule, None), late, *calm)
    assert verdict.result == "1/2-1/2" and "draw" in verdict.reason
    assert feed(Adjudicator(None, rule, None), late, [5, -3, 0, 8], [-2, 0, 40, 10]) is None


def test_mate_scores_count_as_large():
    adjudicator = Adjudicator(parse_resign(["movecount=1", "score=1000"]), None, None)
    adjudicator.record(chess.WHITE, chess.engine.PovScore(chess.engine.Mate(3), chess.WHITE))
    adjudicator.record(chess.BLACK, chess.engine.PovScore(chess.engine.Mate(-2), chess.BLACK))
    assert adjudicator.verdict(chess.Board()).result == "1-0"


@pytest.mark.parametrize("fen, result", [
    ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "1-0"),           # KQvK, White to move
    ("4k3/8/8/8/8/8/8/3QK3 b - - 0 1", "1-0"),           # KQvK, Black to move: still lost
    ("8/8/8/8/8/2k5/8/r1K5 w - - 0 1", "0-1"),           # KRvK for Black
    ("4k3/8/8/8/8/8/r7/2R1K3 w - - 0 1", "1/2-1/2"),     # KRvKR
])
def test_tablebase_verdicts(fen, result):
    tablebase = Tablebase(syzygy())
    try:
        verdict = Adjudicator(None, None, tablebase).verdict(chess.Board(fen))
        assert verdict is not None and verdict.result == result and verdict.reason.startswith("TB")
    finally:
        tablebase.close()


def test_tablebase_skips_big_or_castling_positions():
    tablebase = Tablebase(syzygy())
    try:
        assert tablebase.max_pieces == 4
        assert tablebase.verdict(chess.Board("4k3/8/8/8/8/8/3PP3/3QK3 w - - 0 1")) is None   # 5 pieces
        assert tablebase.verdict(chess.Board("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")) is None      # castling right
    finally:
        tablebase.close()


def test_bad_settings(tmp_path):
    for words in (["movecount=3"], ["movecount=x", "score=1"], ["movecount=0", "score=5"], ["level=3"]):
        with pytest.raises(AdjudicationError):
            parse_resign(words)
    with pytest.raises(AdjudicationError):
        parse_draw(["movenumber=40", "movecount=8"])
    with pytest.raises(AdjudicationError, match="no such folder"):
        Tablebase(str(tmp_path / "missing"))
    with pytest.raises(AdjudicationError, match="no Syzygy"):
        Tablebase(str(tmp_path))
