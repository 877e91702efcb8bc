"""The UCI fuzzer: grammar-aware bad input, raw bytes, and the checks after it.

Each generated line carries what it must do to the engine:
  REJECT  a line the engine must refuse by name: an `info string` must come
          back before the `readyok` of the `isready` sent right behind it
          (an illegal move for the position, a FEN python-chess cannot read,
          an unknown option, a non-integer or out-of-range spin value, a
          `go` value that is not a number);
  ANY     anything else (random text, invalid UTF-8, NUL bytes, long lines,
          valid commands with odd values, huge numbers, positions thousands
          of moves long, go/stop/ponderhit at random times): it may be
          served, warned about or ignored, but must not crash or hang.
The lines are streamed without waiting except behind a REJECT line, so the
reader is under pressure while searches run. Afterwards the engine must
answer isready, play a normal game legally, and have printed no traceback,
no `info string error` (an exception inside the engine) and nothing outside
the protocol. The seed is fixed, so a failure replays exactly.

Used by tests/uci/test_uci_fuzz.py (a few thousand lines) and for the long
run (docs/results.md, "Long runs"):

    python tests/uci_fuzz_lines.py --lines 100000 [--seed 20240601]
"""
import argparse
import random
import string
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent))
from uci_real_engine import RawEngine  # noqa: E402

from engine.uci.loop import banner  # noqa: E402

REJECT, ANY = "reject", "any"
SEED = 20240601
MARKER_FEN = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 77"  # never produced by the fuzz (move 77 from the start)
SPIN_OPTIONS = {"Hash": (1, 65536), "Threads": (1, 256), "MultiPV": (1, 256), "Move Overhead": (0, 5000),
                "UCI_Elo": (1000, 2500), "BookDepth": (1, 255), "SyzygyProbeDepth": (1, 100),
                "SyzygyProbeLimit": (0, 7)}
OTHER_OPTIONS = ["Clear Hash", "Ponder", "UCI_Chess960", "UCI_ShowWDL", "UCI_LimitStrength", "OwnBook",
                 "BookFile", "BookMode", "SyzygyPath", "Syzygy50MoveRule", "UCI_AnalyseMode", "EvalFile", "Use NNUE"]
# Known output line starts: protocol lines and the text of the d/eval/perft/help extensions.
OUTPUT_STARTS = ("id ", "option ", "uciok", "readyok", "info ", "bestmove ", " +", " |", "   a", "Fen: ",
                 "Key: ", "Side to move", "Chess960: ", "Nodes searched", "Evaluation terms", "  ",
                 "Final evaluation", "NNUE evaluation", "UCI:", "     ", "extras:")
HUGE = ["99999999999999999999999", str(2**63), str(2**64), str(-2**63), "1e400", "inf", "nan"]
ONE_MB = 1 << 20


def random_board(rng, plies=40):
    board = chess.Board()
    for _ in range(rng.randrange(0, plies)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def _position_line(board, moves):
    return "position startpos" + (" moves " + " ".join(moves) if moves else "")


def illegal_move_line(rng):
    board = random_board(rng)
    moves = [m.uci() for m in board.move_stack]
    cut = rng.randrange(len(moves) + 1)
    prefix = chess.Board()
    for uci in moves[:cut]:
        prefix.push_uci(uci)
    while True:
        bad = rng.choice(["e2e5", "a1a1", "zz", "e7e8q", "e1g1", "h9h1", "e2e4e", "", "0000x"]
                         + [chess.square_name(rng.randrange(64)) + chess.square_name(rng.randrange(64))])
        try:
            if bad and chess.Move.from_uci(bad) in prefix.legal_moves:
                continue
        except ValueError:
            pass
        if bad == "0000" or not bad.strip():
            continue
        return _position_line(board, moves[:cut] + [bad] + moves[cut:cut + 3]).encode(), REJECT


def almost_valid_fen_line(rng):
    fen = random_board(rng).fen()
    for _ in range(rng.randrange(1, 3)):
        i = rng.randrange(len(fen))
        fen = rng.choice([fen[:i] + rng.choice("pnbrqkPNBRQK123456789/ -wbx") + fen[i + 1:],
                          fen[:i] + fen[i + 1:], fen[:i] + rng.choice("k/ 8") + fen[i:]])
    expect = REJECT         # python-chess cannot read it; neither may the engine
    # Readable in standard chess or in Chess960 (the fuzz turns UCI_Chess960 on
    # and off at random; a castling field like "KkQ" with the king on d8 is
    # good X-FEN): the engine may take it or refuse it.
    for chess960 in (False, True):
        try:
            chess.Board(fen, chess960=chess960)
            expect = ANY
        except ValueError:
            pass
    return f"position fen {fen}".encode(), expect


def long_game_line(rng):
    """A legal move list thousands of plies long (knights shuffling)."""
    cycle = ["g1f3", "g8f6", "f3g1", "f6g8"] if rng.random() < 0.5 else ["b1c3", "b8c6", "c3b1", "c6b8"]
    return _position_line(None, cycle * rng.randrange(250, 1500)).encode(), ANY


def option_line(rng):
    if rng.random() < 0.5:
        name = rng.choice(list(SPIN_OPTIONS))
        low, high = SPIN_OPTIONS[name]
        value = rng.choice(["x", "two", "1.5", str(low - 1 - rng.randrange(100)),
                            str(high + 1 + rng.randrange(10**6))] + HUGE[:4])
        return f"setoption name {name} value {value}".encode(), REJECT
    if rng.random() < 0.3:
        return f"setoption name {rng.choice(['NoSuchOption', 'Hash Hash', 'Threadz'])} value 1".encode(), REJECT
    name = rng.choice(OTHER_OPTIONS + ["MultiPV", "Threads", "Hash", "UCI_Elo"])
    value = rng.choice(["true", "false", "1", "best", "weighted", "nonsense", "/no/such/dir", "<empty>", "",
                        "2", "1"])
    if name == "Hash":
        value = rng.choice(["1", "2", "8"])      # valid values stay small: no gigabytes in the fuzz
    if name == "Threads":
        value = rng.choice(["1", "2", "4", "8"])
    if rng.random() < 0.2:
        return f"setoption name {name}".encode(), ANY
    return f"setoption name {name} value {value}".encode(), ANY


def go_line(rng):
    if rng.random() < 0.2:
        word = rng.choice(["depth", "nodes", "movetime", "wtime", "btime", "movestogo", "mate"])
        return f"go {word} {rng.choice(['x', 'many', '--', '1.5.2'])}".encode(), REJECT
    parts = ["go"]
    for _ in range(rng.randrange(0, 4)):
        parts += rng.choice([["depth", str(rng.randrange(-1, 5))], ["nodes", str(rng.randrange(-5, 3000))],
                             ["movetime", str(rng.randrange(-5, 25))], ["wtime", str(rng.randrange(-50, 300))],
                             ["btime", str(rng.randrange(-50, 300))], ["winc", "5"], ["movestogo", "1"],
                             ["infinite"], ["ponder"], ["mate", str(rng.randrange(0, 3))],
                             ["searchmoves", "e2e4", "zz9", "g1f3"], ["perft", str(rng.randrange(0, 4))],
                             ["depth", "1", "nodes", rng.choice(HUGE)], ["movetime", rng.choice(HUGE), "depth", "2"],
                             ["wtime", rng.choice(HUGE), "depth", "2"], [rng.choice(string.ascii_letters)]])
    return " ".join(parts).encode(), ANY


def garbage_line(rng):
    kind = rng.randrange(5)
    if kind == 0:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 60))).encode(), ANY
    if kind == 1:   # raw bytes: invalid UTF-8 and NULs included
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).replace(b"\n", b" "), ANY
    if kind == 2:
        return b"\x00" * rng.randrange(1, 10) + b"isready\x00", ANY
    if kind == 3:
        return ("x" * rng.randrange(1000, 20000)).encode(), ANY
    return rng.choice(["isready", "ucinewgame", "stop", "ponderhit", "d", "eval", "debug on", "debug off",
                       "uci", "register later", "help", "position", "go", "setoption", "STOP", "IsReady",
                       "   ", "\t\tisready\t", "position startpos moves", "position fen"]).encode(), ANY


def fuzz_line(rng):
    roll = rng.random()
    if roll < 0.00005:
        return b"go " + b"depth 1 " * (ONE_MB // 8), ANY       # a 1 MB line
    if roll < 0.002:
        return long_game_line(rng)
    if roll < 0.12:
        return illegal_move_line(rng)
    if roll < 0.24:
        return almost_valid_fen_line(rng)
    if roll < 0.30:
        return _position_line(random_board(rng), [m.uci() for m in random_board(rng).move_stack]
                              ).encode(), ANY
    if roll < 0.50:
        return option_line(rng)
    if roll < 0.75:
        return go_line(rng)
    return garbage_line(rng)


def make_lines(count, seed=SEED):
    rng = random.Random(seed)
    lines = []
    while len(lines) < count:
        line, expect = fuzz_line(rng)
        words = line[:200].decode("utf-8", "replace").lower().split()
        if "quit" in words or "bench" in words:
            continue  # the two commands that legitimately end or stall the session
        lines.append((line, expect))
    return lines


class FuzzRun:
    def __init__(self, lines):
        self.lines = lines
        self.engine = RawEngine()
        self.unnamed = []    # REJECT lines that got no info string
        self.syncs = 0

    def feed(self, deadline_s=600.0):
        engine = self.engine
        engine.handshake()
        start = time.monotonic()
        for line, expect in self.lines:
            if time.monotonic() - start > deadline_s:
                raise AssertionError(f"the fuzz took over {deadline_s} s: the engine stalls")
            if expect != REJECT:
                engine.send(line)
                continue
            # Unknown commands as markers (the engine names each in an info
            # string): what lies between the two is this line's answer.
            # (isready would not do: the stream leaves readyoks pending.)
            self.syncs += 1
            engine.send(f"fuzzsync-a{self.syncs}")
            engine.expect_containing(f"fuzzsync-a{self.syncs}", timeout=60)
            before = len(engine.seen)
            engine.send(line)
            engine.send(f"fuzzsync-b{self.syncs}")
            engine.expect_containing(f"fuzzsync-b{self.syncs}", timeout=60)
            answer = engine.seen[before:-1]
            if not any(text.startswith("info string") for _, text in answer):
                self.unnamed.append(line[:200])

    def eof_mid_search_exits(self):
        """Then close stdin during a search: the engine must end, status 0."""
        engine = RawEngine()
        engine.handshake()
        engine.send("go infinite")
        engine.expect("info depth", timeout=30)
        engine.proc.stdin.close()
        status = engine.proc.wait(timeout=15)
        return status

    def play_normal_game(self, plies=12):
        """After the fuzz, a short normal game; every move must be legal."""
        engine = self.engine
        engine.send("stop")
        for line in ("setoption name UCI_Chess960 value false", "setoption name MultiPV value 1",
                     "setoption name UCI_LimitStrength value false", "setoption name Threads value 2"):
            engine.send(line)
        # The fuzz sends isready too: wait for a marker that only this part prints.
        engine.send(f"position fen {MARKER_FEN}")
        engine.send("d")
        engine.expect(f"Fen: {MARKER_FEN}", timeout=60)
        engine.send("ucinewgame")
        board = chess.Board()
        for _ in range(plies):
            moves = " ".join(m.uci() for m in board.move_stack)
            engine.send("position startpos" + (f" moves {moves}" if moves else ""))
            engine.send("go depth 4")
            _, best = engine.expect("bestmove", timeout=60)
            move = chess.Move.from_uci(best.split()[1])
            assert move in board.legal_moves, (best, board.fen())
            board.push(move)
        engine.send("isready")
        engine.expect("readyok", timeout=10)
        assert engine.proc.poll() is None
        return board

    def bad_output(self):
        self.engine.close()
        stdout = [line for _, line in self.engine.seen]
        if stdout and stdout[0] == banner():
            stdout = stdout[1:]   # the one line vireo prints at start; anywhere else it is unexpected
        tracebacks = [line for line in stdout if "Traceback" in line]
        errors = [line for line in stdout if line.startswith("info string error")]
        unexpected = [line for line in stdout if line and not line.startswith(OUTPUT_STARTS)
                      and not _is_divide_line(line)]
        return tracebacks + errors + unexpected


def _is_divide_line(line):
    move, _, count = line.partition(": ")
    return 4 <= len(move) <= 5 and count.isdigit()


def main(argv=None):
    parser = argparse.ArgumentParser(description="the UCI fuzzer's long run")
    parser.add_argument("--lines", type=int, default=100000)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args(argv)
    started = time.monotonic()
    lines = make_lines(args.lines, args.seed)
    run = FuzzRun(lines)
    run.feed(deadline_s=24 * 3600)
    board = run.play_normal_game()
    bad = run.bad_output()
    status = run.eof_mid_search_exits()
    rejects = sum(1 for _, expect in lines if expect == REJECT)
    megabyte = sum(1 for line, _ in lines if len(line) >= ONE_MB)
    print(f"lines: {len(lines)} (must-reject {rejects}, 1 MB lines {megabyte}), "
          f"rejected without an info string: {len(run.unnamed)}, bad output lines: {len(bad)}, "
          f"crashes: 0, normal game after: {len(board.move_stack)} legal plies, "
          f"EOF mid-search exit status: {status}, time {time.monotonic() - started:.0f} s")
    for line in run.unnamed[:10]:
        print("  unnamed:", line)
    for line in bad[:10]:
        print("  bad output:", line)
    return 0 if not run.unnamed and not bad and status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
