"""A stand-in for engine._core.Search in protocol unit tests.

It keeps the contract of docs/core-api.md that the UCI layer relies on
(blocking go, on_info reports, stop from another thread, set_limits,
infinite, soft/hard, depth, nodes, searchmoves, multipv) with real Positions,
but "searches" by sleeping, so the protocol tests are fast and exact. Like a
real core it clears its stop flag when go starts, so the tests also cover a
stop that races with the start of a search. End-to-end tests use the real core.
"""
import threading
import time


class FakeSearch:
    ITERATION_S = 0.003   # one "iteration" of the fake search
    NODES_PER_ITERATION = 1000

    def __init__(self, score_by_move=None):
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._soft = self._hard = None
        self._started = 0.0
        self.calls = []           # limits of every go
        self.hash_mb = 16
        self.threads = 1
        self.cleared = 0
        self.searching = threading.Event()
        # Optional {uci move: cp} so tests can steer multipv scores.
        self.score_by_move = score_by_move or {}

    # -- settings --------------------------------------------------------
    def set_hash(self, mb):
        if mb < 1:
            raise ValueError("hash must be at least 1 MB")
        if mb > 4096:
            raise MemoryError("cannot allocate")
        self.hash_mb = mb

    def clear_hash(self):
        self.cleared += 1

    def set_threads(self, n):
        self.threads = n

    def hashfull(self):
        return 0

    def evaluate(self, position):
        return 12

    def eval_terms(self, position):
        return {"material": (0, 0), "mobility": (10, 14), "tempo": 12}

    def set_option(self, name, value):
        pass

    def set_tablebase(self, probe, probe_depth=1, probe_limit=7):
        self.tablebase = (probe, probe_depth, probe_limit)

    # -- searching -------------------------------------------------------
    def stop(self):
        self._stop.set()

    def set_limits(self, soft_ms, hard_ms):
        with self._lock:
            now = (time.monotonic() - self._started) * 1000
            self._soft, self._hard = now + soft_ms, now + hard_ms

    def go(self, position, limits, on_info=None):
        self._stop.clear()
        self.calls.append(dict(limits))
        self._started = time.monotonic()
        with self._lock:
            self._soft = limits.get("soft_ms", limits.get("movetime"))
            self._hard = limits.get("hard_ms", limits.get("movetime"))
        moves = limits.get("searchmoves") or position.legal_moves()
        if not moves:
            return None, None
        ordered = sorted(moves, key=lambda m: -self.score_by_move.get(m, 0))
        infinite = limits.get("infinite", False)
        depth = nodes = 0
        self.searching.set()
        try:
            while True:
                time.sleep(self.ITERATION_S)
                depth += 1
                nodes += self.NODES_PER_ITERATION
                elapsed = (time.monotonic() - self._started) * 1000
                for k in range(min(limits.get("multipv", 1), len(ordered))):
                    move = ordered[k]
                    if on_info:
                        on_info({"depth": depth, "seldepth": depth + 2, "multipv": k + 1,
                                 "score": ("cp", self.score_by_move.get(move, 10 - k)),
                                 "bound": None, "nodes": nodes, "nps": int(nodes / max(elapsed, 1) * 1000),
                                 "time": int(elapsed), "hashfull": 0, "tbhits": 0, "pv": [move]})
                if self._stop.is_set():
                    break
                with self._lock:
                    soft, hard = self._soft, self._hard
                if hard is not None and elapsed >= hard:
                    break
                if soft is not None and elapsed >= soft:
                    break
                if not infinite or soft is not None:
                    if "depth" in limits and depth >= limits["depth"]:
                        break
                    if "nodes" in limits and nodes >= limits["nodes"]:
                        break
                    if "mate" in limits and depth >= 2 * limits["mate"]:
                        break
        finally:
            self.searching.clear()
        return ordered[0], None
