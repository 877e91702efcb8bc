"""Fuzz: thousands of grammar-aware bad lines and raw bytes, then the engine must still serve.

The generator and the checks are in tests/uci_fuzz_lines.py (which also runs
the 100,000-line long run). Here: 3000 lines with a fixed seed, plus the
edge cases a short run may not draw (a 1 MB line, a position thousands of
moves long, NUL bytes, invalid UTF-8), so a failure replays exactly.
"""
import random

from uci_fuzz_lines import ANY, ONE_MB, REJECT, FuzzRun, long_game_line, make_lines

LINES = 3000
EDGE_CASES = [
    (b"go " + b"depth 1 " * (ONE_MB // 8), ANY),
    long_game_line(random.Random(1)),
    (b"\x00\x00isready\x00", ANY),
    (b"\xff\xfe\xc3\x28 position startpos \xed\xa0\x80", ANY),
    (b"setoption name Hash value 99999999999999999999999", REJECT),
    (b"position startpos moves e2e4 e7e5 e1e3", REJECT),
]


def test_fuzzed_input_then_a_normal_game():
    lines = EDGE_CASES + make_lines(LINES)
    run = FuzzRun(lines)
    run.feed(deadline_s=240)
    board = run.play_normal_game()
    assert len(board.move_stack) == 12
    assert run.bad_output() == []
    # Every line that must be refused was named in an info string.
    assert run.syncs == sum(1 for _, expect in lines if expect == REJECT) > 500
    assert run.unnamed == []


def test_eof_in_mid_search_ends_the_engine_cleanly():
    assert FuzzRun([]).eof_mid_search_exits() == 0
