"""Perft: every suite exact, the divide output and the perft command.

Covered here: the standard suite at every depth it lists (D1-D6, about 4.8
billion leaves) and the Chess960 suite at D1-D5 (about 17.6 billion).
"""
import subprocess
import sys

import chess
import pytest

from engine._core import Position
from engine.tools.perft_suite import SuiteError, parse_line, read_suite

from conftest import REPO, shared_data

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def check_suite(path, max_depth):
    failures, nodes = [], 0
    for case in read_suite(path):
        pos = Position(case.fen, chess960=True)
        for depth, expected in sorted(case.expected.items()):
            if depth <= max_depth:
                got = pos.perft(depth)
                nodes += got
                if got != expected:
                    failures.append((case.fen, depth, expected, got))
    return failures, nodes


def test_standard_suite_every_depth():
    failures, nodes = check_suite(shared_data("perft", "standard.epd"), 6)
    assert failures == []
    assert nodes == 4805793839


def test_chess960_suite_to_depth_5():
    failures, nodes = check_suite(shared_data("perft", "chess960.epd"), 5)
    assert failures == []
    assert nodes == 17614927759


def test_shipped_suites_equal_the_shared_ones():
    for name, shared in (("standard.epd", "standard.epd"), ("chess960.epd", "chess960.epd")):
        assert (REPO / "perft" / name).read_bytes() == shared_data("perft", shared).read_bytes()


def test_divide_matches_python_chess():
    board = chess.Board(KIWIPETE)
    pos = Position(KIWIPETE)
    divide = pos.divide(2)
    expected = {}
    for move in board.legal_moves:
        board.push(move)
        expected[move.uci()] = board.legal_moves.count()
        board.pop()
    assert divide == expected
    assert sum(pos.divide(3).values()) == pos.perft(3) == 97862


def test_perft_depth_zero_and_errors():
    assert Position().perft(0) == 1
    with pytest.raises(ValueError):
        Position().perft(-1)
    with pytest.raises(ValueError):
        Position().divide(0)


def test_suite_line_parsing():
    case = parse_line("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9", 4)
    assert case.fen == "8/8/8/8/8/8/8/K6k w - - 0 1" and case.expected == {1: 3, 2: 9}
    assert parse_line("   ", 1) is None
    for bad in ("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 x", "8/8 w ;X1 3", "fen only", " ;D1 3"):
        with pytest.raises(SuiteError):
            parse_line(bad, 1)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "engine", "perft", "--no-progress", *args],
                          capture_output=True, text=True, timeout=300)


def test_cli_single_position_and_divide():
    out = run_cli("--fen", KIWIPETE, "--depth", "3", "--divide")
    assert out.returncode == 0
    assert "Nodes searched: 97862" in out.stdout
    assert "e5f7: 2080" in out.stdout.splitlines()


def test_cli_suite_pass_and_fail(tmp_path):
    good = tmp_path / "good.epd"
    good.write_text(f"{KIWIPETE} ;D1 48 ;D2 2039\n")
    out = run_cli("--suite", str(good))
    assert out.returncode == 0 and "Failures: 0" in out.stdout
    bad = tmp_path / "bad.epd"
    bad.write_text(f"{KIWIPETE} ;D1 48 ;D2 2040\n")
    out = run_cli("--suite", str(bad))
    assert out.returncode == 1
    assert f"FAIL {KIWIPETE} depth 2: expected 2040, got 2039" in out.stdout + out.stderr
    assert "Failures: 1" in out.stdout


def test_cli_bad_input_exits_nonzero(tmp_path):
    assert run_cli("--fen", "not a fen", "--depth", "2").returncode == 2
    assert run_cli("--suite", str(tmp_path / "missing.epd")).returncode == 2
    broken = tmp_path / "broken.epd"
    broken.write_text("8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 three\n")
    out = run_cli("--suite", str(broken))
    assert out.returncode == 2 and "bad depth entry" in out.stderr
    badfen = tmp_path / "badfen.epd"
    badfen.write_text("8/8/8/8/8/8/8/K7 w - - 0 1 ;D1 3\n")
    assert run_cli("--suite", str(badfen)).returncode == 2


def test_the_stored_magic_numbers_hold():
    """core/magic_numbers.pxi: every stored number passed its check while the
    slider tables were filled at import (none had to be searched for again);
    the perft counts above show the tables are right."""
    from engine._core import magic_searches
    assert magic_searches() == 0
