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
    # depth 2: SEE must reach -180; -400 does not
    assert _capture_pruned(position, "d2d5", 0, -50, 2, 1, 0)
    assert _capture_pruned(position, "d2d5", 0, -50, 2, 1, -16000)
    # a history near the top (16000 / 32 = 500 cp off the threshold) keeps it at depth 2
    assert not _capture_pruned(position, "d2d5", 0, -50, 2, 1, 16000)


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
