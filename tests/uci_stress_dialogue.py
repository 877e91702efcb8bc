"""A scripted, randomised UCI dialogue that stresses what a long GUI session does.

Games are played move by move against the real engine on a pipe while the
options change under it: Threads 1..N, Hash resized, Clear Hash mid-game,
MultiPV, UCI_ShowWDL, Move Overhead, ucinewgame; each move is searched by a
random kind of `go` (clock, movetime, depth, nodes, infinite then `stop`
after 0..40 ms, `go ponder` then `ponderhit` or `stop`), and now and then a
`stop` is sent right behind the `go`. Positions from the Syzygy tables'
range are mixed in, so tablebase probes come from several threads at once.

Checked on every `go`: exactly one `bestmove` arrives (within a deadline,
so a deadlock is a failure, not a hang), and it is legal in the position
(python-chess decides). A traceback or `info string error` on the way is a
failure too. Used by tests/uci/test_uci_stress.py (a short run) and by
tests/sanitize/run.sh (the same dialogue under ASan/UBSan and TSan):

    python tests/uci_stress_dialogue.py [--games 3] [--plies 30] [--max-threads 4] [--syzygy PATH]
"""
import argparse
import random
import sys
import time
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent))
from uci_real_engine import RawEngine  # noqa: E402

# Positions inside 3-5 piece tables: a search from them probes in every thread.
TABLEBASE_FENS = [
    "8/8/8/8/8/4k3/8/KQ6 w - - 0 1",
    "8/8/4k3/8/8/2K5/3P4/8 w - - 0 1",
    "8/2r5/8/4k3/8/8/3PK3/3R4 w - - 0 1",
    "8/8/8/3k4/8/8/1B6/1N1K4 w - - 0 1",
]
BESTMOVE_DEADLINE_S = 60.0   # generous: instrumented builds run 5-20 times slower


class DialogueFailure(AssertionError):
    pass


class StressDialogue:
    def __init__(self, seed=1, max_threads=4, syzygy=None, log=None):
        self.rng = random.Random(seed)
        self.max_threads = max_threads
        self.syzygy = syzygy
        self.log = log or (lambda text: None)
        self.engine = RawEngine()
        self.gos = 0
        self.bestmoves = 0

    # -- one go, one bestmove ---------------------------------------------
    def search(self, board):
        """Send one random kind of go for board; return the legal bestmove."""
        rng = self.rng
        kind = rng.choice(["clock", "movetime", "depth", "nodes", "infinite", "ponder", "instant-stop"])
        side = "w" if board.turn else "b"
        go = {"clock": f"go wtime {rng.randrange(50, 3000)} btime {rng.randrange(50, 3000)} "
                       f"{side}inc {rng.randrange(0, 50)}" + (" movestogo 1" if rng.random() < 0.2 else ""),
              "movetime": f"go movetime {rng.randrange(1, 40)}",
              "depth": f"go depth {rng.randrange(1, 7)}",
              "nodes": f"go nodes {rng.randrange(1, 20000)}",
              "infinite": "go infinite",
              "ponder": "go ponder wtime 2000 btime 2000",
              "instant-stop": "go infinite"}[kind]
        self.engine.send(go)
        self.gos += 1
        if kind == "instant-stop":
            self.engine.send("stop")        # within microseconds of the go
        elif kind == "infinite":
            time.sleep(rng.random() * 0.04)
            self.engine.send("stop")
        elif kind == "ponder":
            time.sleep(rng.random() * 0.04)
            self.engine.send(rng.choice(["ponderhit", "stop"]))
        _, line = self.engine.expect("bestmove", timeout=BESTMOVE_DEADLINE_S)
        self.bestmoves += 1
        move = chess.Move.from_uci(line.split()[1])
        if move not in board.legal_moves:
            raise DialogueFailure(f"illegal bestmove {line!r} after {go!r} in {board.fen()}")
        return move

    # -- the options a GUI changes between moves ---------------------------
    def change_something(self):
        rng = self.rng
        choice = rng.randrange(8)
        line = ["setoption name Threads value %d" % rng.randrange(1, self.max_threads + 1),
                "setoption name Hash value %d" % rng.choice([1, 2, 8, 16, 33, 64]),
                "setoption name Clear Hash",
                "setoption name MultiPV value %d" % rng.randrange(1, 4),
                "setoption name UCI_ShowWDL value %s" % rng.choice(["true", "false"]),
                "setoption name Move Overhead value %d" % rng.randrange(0, 100),
                "setoption name Syzygy50MoveRule value %s" % rng.choice(["true", "false"]),
                "isready"][choice]
        self.engine.send(line)
        if line == "isready":
            self.engine.expect("readyok", timeout=BESTMOVE_DEADLINE_S)

    def play_game(self, start_fen, plies):
        board = chess.Board(start_fen) if start_fen else chess.Board()
        self.engine.send("ucinewgame")
        for _ in range(plies):
            if board.is_game_over(claim_draw=True):
                break
            if self.rng.random() < 0.3:
                self.change_something()
            moves = " ".join(m.uci() for m in board.move_stack)
            base = f"fen {start_fen}" if start_fen else "startpos"
            self.engine.send(f"position {base}" + (f" moves {moves}" if moves else ""))
            board.push(self.search(board))
        return board

    def run(self, games, plies):
        engine = self.engine
        engine.handshake()
        engine.send("setoption name Threads value %d" % self.max_threads)
        engine.send("setoption name OwnBook value false")   # search every move, never the book
        if self.syzygy:
            engine.send(f"setoption name SyzygyPath value {self.syzygy}")
        for number in range(games):
            fen = None if number % 2 == 0 else self.rng.choice(TABLEBASE_FENS)
            board = self.play_game(fen, plies)
            self.log(f"game {number + 1}: {len(board.move_stack)} plies, gos {self.gos}")
        engine.send("isready")
        engine.expect("readyok", timeout=BESTMOVE_DEADLINE_S)
        engine.close()
        self.check_output()

    def check_output(self):
        engine = self.engine
        stdout = [line for _, line in engine.seen] + engine.drain(0)
        bad = [line for line in stdout if "Traceback" in line or line.startswith("info string error")]
        stderr = [line for _, line in engine.stderr if line.strip()]
        if bad or stderr:
            raise DialogueFailure(f"errors: {bad[:5]} stderr: {stderr[:10]}")
        if self.bestmoves != self.gos:
            raise DialogueFailure(f"{self.gos} go commands, {self.bestmoves} bestmoves")
        if engine.proc.returncode != 0:
            raise DialogueFailure(f"engine exit status {engine.proc.returncode}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--max-threads", type=int, default=4)
    parser.add_argument("--syzygy", default=None)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    dialogue = StressDialogue(args.seed, args.max_threads, args.syzygy, log=print)
    dialogue.run(args.games, args.plies)
    print(f"dialogue: {dialogue.gos} go, {dialogue.bestmoves} bestmove, all legal, no errors")


if __name__ == "__main__":
    main()
