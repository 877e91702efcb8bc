"""Commands beyond the UCI standard that people expect from an engine:
`d` (board, FEN, key), `eval` (evaluation terms), `go perft N`, `bench`, `help`.

Like Stockfish's, their output is plain text lines (not `info`): they are
meant for a person at a terminal. `go perft` runs in the worker thread, so
`isready` is still answered while it counts; it prints no bestmove.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import time

from . import bench
from .parse import GoCommand
from .runner import SearchJob

PIECE_LETTERS = " pnbrqk"  # index = python-chess piece type

HELP = [
    "UCI: uci, isready, ucinewgame, position startpos|fen <FEN> [moves ...], go [...], stop,",
    "     ponderhit, setoption name <name> [value <value>], debug on|off, quit",
    "extras: d (board), eval (evaluation terms), go perft <depth>, bench, help",
]


class ExtraCommands:
    def __init__(self, engine):
        # engine: the UciEngine (loop.py) that owns these commands; not imported
        # here, so that the loop depends on the commands and never the reverse.
        self.engine = engine

    @property
    def out(self):
        return self.engine.out

    def cmd_help(self, args, line):
        for text in HELP:
            self.out.send(text)

    def cmd_d(self, args, line):
        position = self.engine.game.position
        border = " +---+---+---+---+---+---+---+---+"
        self.out.send("")
        self.out.send(border)
        for rank in range(7, -1, -1):
            cells = []
            for file in range(8):
                piece = position.piece_at(rank * 8 + file)
                if piece is None:
                    cells.append(" ")
                else:
                    letter = PIECE_LETTERS[piece[0]]
                    cells.append(letter.upper() if piece[1] else letter)
            self.out.send(" | " + " | ".join(cells) + f" | {rank + 1}")
            self.out.send(border)
        self.out.send("   a   b   c   d   e   f   g   h")
        self.out.send("")
        self.out.send(f"Fen: {position.fen()}")
        self.out.send(f"Key: {position.key:016X}")
        self.out.send(f"Side to move: {'white' if position.turn else 'black'}"
                      f"{' (in check)' if position.in_check() else ''}")
        self.out.send(f"Chess960: {'on' if position.chess960 else 'off'}")

    def cmd_eval(self, args, line):
        engine = self.engine
        if engine.runner.busy():
            engine.say("eval: not while searching (send stop first)")
            return
        engine.apply_pending()   # the network of the options, as a search would use it
        position = engine.game.position
        terms = engine.search.eval_terms(position)
        width = max((len(str(name)) for name in terms), default=0)
        self.out.send("Evaluation terms (centipawns, as the core reports them):")
        for name, value in terms.items():
            self.out.send(f"  {str(name):<{width}}  {_format_term(value)}")
        total = engine.search.evaluate(position)
        side = 'white' if position.turn else 'black'
        self.out.send(f"Final evaluation: {total / 100:+.2f} (side to move: {side})")
        info = engine.core.network_info()
        if info is not None:
            used = "used by the search" if engine.search.get_option("use_nnue") else "Use NNUE is off"
            self.out.send(f"NNUE evaluation: {position.nnue_search_eval() / 100:+.2f} (side to move: {side}; "
                          f"{info['path']}, {info['hidden']} neurons; {used}; "
                          f"read as 4/5 of the network's output {position.nnue_eval() / 100:+.2f}: the classical scale)")

    def start_perft(self, depth: int) -> None:
        engine = self.engine
        position = engine.game.position.copy()
        out = self.out

        def work(job):
            started = time.perf_counter()
            divide = {}
            for move in sorted(position.legal_moves()) if depth else []:
                position.push(move)
                count = _stoppable_perft(position, depth - 1, job)
                position.pop()
                if count is None:
                    out.info_string(f"perft {depth} stopped")
                    return None
                divide[move] = count
                out.send(f"{move}: {count}")
            total = sum(divide.values()) if depth else 1
            elapsed = time.perf_counter() - started
            out.send("")
            out.send(f"Nodes searched: {total}")
            if engine.debug:
                out.info_string(f"perft {depth}: {elapsed:.3f} s, {total / max(elapsed, 1e-9):.0f} nodes/s")
            return None

        job = SearchJob(GoCommand(perft=depth), emits_bestmove=False)
        engine.runner.start(job, work, lambda: (None, None))

    def cmd_bench(self, args, line):
        """`bench [arguments of vireo bench]`: the bench subcommand, its report on stdout.

        Like Stockfish's, it runs in the reader thread: the loop waits for it.
        """
        engine = self.engine
        if engine.runner.busy():
            engine.say("bench: not while searching (send stop first)")
            return
        parser = argparse.ArgumentParser(prog="bench", add_help=False)
        bench.add_arguments(parser)
        try:
            parsed = parser.parse_args(args)
        except SystemExit:  # argparse has printed the usage on stderr
            engine.say(f"bench: bad arguments {' '.join(args)!r} (see 'vireo bench --help')")
            return
        # The subcommand prints its report; while the UCI loop runs sys.stdout
        # is stderr, so point it at the protocol output for the duration.
        with contextlib.redirect_stdout(_LineWriter(self.out)) as writer:
            status = bench.run(parsed)
        writer.close()
        engine.reload_network()   # bench loaded its own network into the core
        if status:
            engine.say(f"bench ended with status {status} (its message is on stderr)")


class _LineWriter(io.TextIOBase):
    """A text stream that sends each complete line through Output."""

    def __init__(self, out):
        self._out = out
        self._partial = ""

    def writable(self):
        return True

    def write(self, text):
        self._partial += text
        *lines, self._partial = self._partial.split("\n")
        for line in lines:
            self._out.send(line)
        return len(text)

    def close(self):
        if self._partial:
            self._out.send(self._partial)
            self._partial = ""
        super().close()


# Below this depth one native perft call takes a few ms at most: `stop` is
# checked between such calls, so even `go perft 9` ends promptly on stop.
NATIVE_PERFT_DEPTH = 5


def _stoppable_perft(position, depth: int, job):
    """Leaf count below position, or None once the job is asked to stop."""
    if job.stop_requested:
        return None
    if depth <= NATIVE_PERFT_DEPTH:
        return position.perft(depth)
    total = 0
    for move in position.legal_moves():
        position.push(move)
        count = _stoppable_perft(position, depth - 1, job)
        position.pop()
        if count is None:
            return None
        total += count
    return total


def _format_term(value) -> str:
    if isinstance(value, (tuple, list)):
        return " ".join(_format_term(v) for v in value)
    if isinstance(value, dict):
        return " ".join(f"{k}={_format_term(v)}" for k, v in value.items())
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)
