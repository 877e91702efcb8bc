"""Capture history in the pruning of captures (search.pxi's capture_pruned,
Step 14): a capture that has often cut is kept where one without that
record is pruned, by SEE and by futility. engine._core._capture_pruned
asks the rule directly."""
from engine._core import Position, _capture_pruned

# White's rook can take a pawn on d5 defended by the e6 pawn: SEE -400
ROOK_TAKES_DEFENDED = "4k3/8/4p3/3p4/8/8/3R4/4K3 w - - 0 1"
# White's rook can take a free pawn on a7: SEE +100
ROOK_TAKES_PAWN = "4k3/p7/8/8/8/8/8/R3K3 w - - 0 1"


def test_a_losing_capture_is_pruned_unless_its_history_is_good():
    position = Position(ROOK_TAKES_DEFENDED)
    # depth 3: SEE must reach -270; -400 does not
    assert _capture_pruned(position, "d2d5", 0, -50, 3, 1, 0)
    assert _capture_pruned(position, "d2d5", 0, -50, 3, 1, -16000)
    # a history near the top lowers the threshold by 3/4 of the margin (202
    # cp, not the 500 of 16000 / 32) to -472: the capture is searched
    assert not _capture_pruned(position, "d2d5", 0, -50, 3, 1, 16000)
    # at depth 2 the bound keeps it pruned: -180 - 135 = -315 > -400
    assert _capture_pruned(position, "d2d5", 0, -50, 2, 1, 16000)


def test_futility_prunes_a_capture_far_below_alpha_and_history_raises_the_bar():
    position = Position(ROOK_TAKES_PAWN)
    # eval 0, alpha 500: 0 + 150 + 120 * 1 + 100 falls short
    assert _capture_pruned(position, "a1a7", 0, 500, 3, 1, 0)
    # a good capture history adds up to 16000 / 32 = 500 cp
    assert not _capture_pruned(position, "a1a7", 0, 500, 3, 1, 16000)
    # near alpha the capture is searched
    assert not _capture_pruned(position, "a1a7", 0, 300, 3, 1, 0)
    # in check (no static evaluation) futility does not apply
    assert not _capture_pruned(position, "a1a7", None, 500, 3, 1, 0)


def test_a_bad_history_never_prunes_a_winning_capture():
    position = Position(ROOK_TAKES_PAWN)
    # the worst history moves the SEE threshold up by 3/4 of the margin at
    # most: -90 * 2 + 135 = -45, so a pawn won (+100) is still searched
    # (eval 300: futility, which counts the history whole, stays out of it)
    assert not _capture_pruned(position, "a1a7", 300, -50, 2, 1, -16384)
    # a losing capture with a bad history stays pruned
    assert _capture_pruned(Position(ROOK_TAKES_DEFENDED), "d2d5", 0, -50, 2, 1, -16384)
