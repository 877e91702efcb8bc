"""Helpers for the end-to-end UCI tests: the real engine as a child process.

Two ways to talk to it: python-chess (a real, independent UCI client) and a
raw pipe with timestamped lines (for latency measurements and bad input).
"""
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import chess
import chess.engine

import engine

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "tests" / "artifacts"
ENGINE_COMMAND = [sys.executable, "-m", "engine"]


def engine_env():
    """The child imports the same `engine` package as the tests (installed or src/)."""
    env = dict(os.environ)
    package_root = str(Path(engine.__file__).resolve().parents[1])
    env["PYTHONPATH"] = package_root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def popen_uci(**kwargs):
    return chess.engine.SimpleEngine.popen_uci(ENGINE_COMMAND, env=engine_env(), cwd=str(REPO), **kwargs)


class RawEngine:
    """The engine on a pipe; every stdout line is kept with its arrival time."""

    def __init__(self):
        self.proc = subprocess.Popen(ENGINE_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=engine_env(), cwd=str(REPO))
        self.lines = queue.Queue()
        self.seen = []
        self.stderr = []
        threading.Thread(target=self._pump, args=(self.proc.stdout, self._keep), daemon=True).start()
        threading.Thread(target=self._pump, args=(self.proc.stderr, self.stderr.append), daemon=True).start()

    @staticmethod
    def _pump(stream, sink):
        for raw in iter(stream.readline, b""):
            sink((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\r\n")))

    def _keep(self, item):
        self.lines.put(item)

    def send(self, line):
        """Write one line; returns the time it was written."""
        data = line.encode() if isinstance(line, str) else line
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()
        return time.monotonic()

    def expect(self, prefix, timeout=10.0):
        """(arrival time, line) of the first line that starts with prefix."""
        return self._first(lambda line: line.startswith(prefix), repr(prefix), timeout)

    def expect_containing(self, text, timeout=10.0):
        """(arrival time, line) of the first line that contains text."""
        return self._first(lambda line: text in line, repr(text), timeout)

    def _first(self, wanted, what, timeout):
        deadline = time.monotonic() + timeout
        while True:
            try:
                stamp, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {what} within {timeout}s; last lines: {[l for _, l in self.seen[-8:]]}")
            self.seen.append((stamp, line))
            if wanted(line):
                return stamp, line

    def drain(self, wait=0.1):
        time.sleep(wait)
        out = []
        while True:
            try:
                item = self.lines.get_nowait()
            except queue.Empty:
                return out
            self.seen.append(item)
            out.append(item[1])

    def handshake(self):
        self.send("uci")
        self.expect("uciok")
        self.send("isready")
        self.expect("readyok")

    def close(self):
        try:
            if self.proc.poll() is None:
                self.send("quit")
            self.proc.wait(timeout=5)
        except (BrokenPipeError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


class LenientXBoardProtocol(chess.engine.XBoardProtocol):
    """python-chess's xboard client, accepting engines that declare setboard=0.

    Fairy-Max says setboard=0, which python-chess refuses. Every game here
    starts from the standard position, and python-chess then sends the moves
    as moves, never a setboard, so the feature can safely be taken as given.
    """

    def __init__(self):
        super().__init__()
        self.features = _SetboardAlwaysOn()


class _SetboardAlwaysOn(dict):
    def __setitem__(self, key, value):
        super().__setitem__(key, 1 if key == "setboard" else value)


def popen_fairymax(path):
    return chess.engine.SimpleEngine.popen(LenientXBoardProtocol, [path])
