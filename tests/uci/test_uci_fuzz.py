"""Fuzz: thousands of random and malformed lines, then the engine must still serve.

The lines mix garbage (random text, invalid UTF-8, NUL bytes, very long
lines) with commands that are almost right (random options and values, bad
FENs, illegal moves, odd `go` parameters, stop/ponderhit at random times).
Afterwards the engine must answer isready, play a legal move, and never have
printed a traceback. The seed is fixed, so a failure replays exactly.
"""
import random
import string
import threading

import chess

from uci_real_engine import RawEngine

SEED = 20240601
MARKER_FEN = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 77"  # never produced by the fuzz (move 77 from the start)
LINES = 3000
OPTION_NAMES = ["Hash", "hash", "Clear Hash", "Threads", "MultiPV", "multipv", "Ponder", "Move Overhead",
                "UCI_Chess960", "UCI_AnalyseMode", "UCI_ShowWDL", "UCI_LimitStrength", "UCI_Elo", "OwnBook", "BookFile",
                "BookDepth", "BookMode", "SyzygyPath", "SyzygyProbeDepth", "SyzygyProbeLimit",
                "Syzygy50MoveRule", "EvalFile", "Use NNUE", "NoSuchOption", "", "Hash Hash"]
# Known output line starts: protocol lines and the text of the d/eval/perft/help extensions.
OUTPUT_STARTS = ("id ", "option ", "uciok", "readyok", "info ", "bestmove ", " +", " |", "   a", "Fen: ",
                 "Key: ", "Side to move", "Chess960: ", "Nodes searched", "Evaluation terms", "  ",
                 "Final evaluation", "UCI:", "     ", "extras:")


def random_board(rng):
    board = chess.Board()
    for _ in range(rng.randrange(0, 40)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def option_value(rng, name):
    # Hash and Threads stay small when valid: the fuzz must not allocate gigabytes.
    if name.lower() == "hash":
        return rng.choice(["1", "2", "8", "0", "-5", "99999999999", "x", ""])
    if name == "Threads":
        return rng.choice(["1", "2", "0", "300", "two"])
    return rng.choice(["true", "false", "0", "1", "-1", "3000", "best", "weighted", "nonsense",
                       "/no/such/dir", "<empty>", "", "7", str(rng.randrange(-10**6, 10**6))])


def fuzz_line(rng):
    kind = rng.randrange(12)
    if kind == 0:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(1, 60))).encode()
    if kind == 1:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).replace(b"\n", b" ")
    if kind == 2:
        return ("x" * rng.randrange(1000, 20000)).encode()
    if kind == 3:
        return rng.choice(["isready", "ucinewgame", "stop", "ponderhit", "d", "eval", "debug on",
                           "debug off", "uci", "register later", "help", "position", "go", "setoption",
                           "STOP", "IsReady", "   ", "\t\tisready\t"]).encode()
    if kind in (4, 5):
        board = random_board(rng)
        moves = [m.uci() for m in board.move_stack]
        if moves and rng.random() < 0.4:
            moves[rng.randrange(len(moves))] = rng.choice(["e2e5", "a1a1", "zz", "e7e8q", "0000", "e1g1"])
        if rng.random() < 0.5:
            return ("position startpos moves " + " ".join(moves)).encode()
        fen = board.fen()
        if rng.random() < 0.4:
            i = rng.randrange(len(fen))
            fen = fen[:i] + rng.choice("pnbrqkPNBRQK12345678/ -wb") + fen[i + 1:]
        return f"position fen {fen}".encode()
    if kind in (6, 7, 8):
        parts = ["go"]
        for _ in range(rng.randrange(0, 4)):
            parts += rng.choice([["depth", str(rng.randrange(-1, 5))], ["nodes", str(rng.randrange(-5, 3000))],
                                 ["movetime", str(rng.randrange(-5, 25))], ["wtime", str(rng.randrange(-50, 300))],
                                 ["btime", str(rng.randrange(-50, 300))], ["winc", "5"], ["movestogo", "1"],
                                 ["infinite"], ["ponder"], ["mate", str(rng.randrange(0, 3))],
                                 ["searchmoves", "e2e4", "zz9", "g1f3"], ["perft", str(rng.randrange(0, 4))],
                                 ["depth"], ["nodes", "many"], [rng.choice(string.ascii_letters)]])
        return " ".join(parts).encode()
    name = rng.choice(OPTION_NAMES)
    if rng.random() < 0.2:
        return f"setoption name {name}".encode()
    return f"setoption name {name} value {option_value(rng, name)}".encode()


def make_lines(count):
    rng = random.Random(SEED)
    lines = []
    while len(lines) < count:
        line = fuzz_line(rng)
        words = line.decode("utf-8", "replace").lower().split()
        if "quit" in words or "bench" in words:
            continue  # the two commands that legitimately end or stall the session
        lines.append(line)
    return lines


def test_fuzzed_input_then_isready_and_a_legal_move():
    engine = RawEngine()
    try:
        engine.handshake()
        lines = make_lines(LINES)
        writer = threading.Thread(target=lambda: [engine.send(line) for line in lines], daemon=True)
        writer.start()
        writer.join(timeout=120)
        assert not writer.is_alive(), "the engine stopped reading its input"
        engine.send("stop")
        for line in ("setoption name UCI_Chess960 value false", "setoption name MultiPV value 1",
                     "setoption name UCI_LimitStrength value false", "position startpos moves e2e4"):
            engine.send(line)
        # The fuzz sends isready too: wait for a marker that only this part prints,
        # so the readyok below is the answer to this isready.
        engine.send(f"position fen {MARKER_FEN}")
        engine.send("d")
        engine.expect(f"Fen: {MARKER_FEN}", timeout=60)
        engine.send("position startpos moves e2e4")
        engine.send("isready")
        engine.expect("readyok", timeout=10)
        engine.send("go depth 3")
        _, best = engine.expect("bestmove", timeout=30)
        board = chess.Board()
        board.push_uci("e2e4")
        assert chess.Move.from_uci(best.split()[1]) in board.legal_moves
        assert engine.proc.poll() is None
    finally:
        engine.close()
    stdout = [line for _, line in engine.seen]
    assert not any("Traceback" in line for line in stdout)
    unexpected = [line for line in stdout if line and not line.startswith(OUTPUT_STARTS)
                  and not _is_divide_line(line)]
    assert unexpected == []
    errors = [line for line in stdout if line.startswith("info string error")]
    assert errors == [], errors[:5]


def _is_divide_line(line):
    move, _, count = line.partition(": ")
    return 4 <= len(move) <= 5 and count.isdigit()
