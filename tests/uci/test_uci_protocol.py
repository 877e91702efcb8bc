"""The UCI loop's protocol rules, driven in-process with a fake search (tests/uci_fake_search.py).

These tests pin the protocol layer alone: exactly one bestmove per go, the
infinite/ponder hold, stop and ponderhit races, option effects, position
handling and bad input. tests/test_uci_engine.py checks the same through real
clients against the real core.
"""
import queue
import random
import threading
import time
from types import SimpleNamespace

import chess
import pytest

from engine import _core
from engine.uci.go import BOOK_CHECK_DEPTH, BOOK_CHECK_MS
from engine.uci.loop import UciEngine
from engine.uci.output import Output
from uci_fake_search import FakeSearch

KQK = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"


class Harness:
    """A UciEngine whose stdout is a queue of lines."""

    def __init__(self, search=None, **engine_kwargs):
        self.queue = queue.Queue()
        self.seen = []
        self.search = search or FakeSearch()
        core = SimpleNamespace(Position=_core.Position, Search=lambda: self.search)
        self.engine = UciEngine(Output(self), core=core, rng=random.Random(7), **engine_kwargs)
        # this core has no network: the protocol runs on the classical evaluation
        self.send("setoption name Use NNUE value false")
        self.send("setoption name OwnBook value false")

    # the Output stream interface
    def write(self, data):
        for line in data.decode().split("\n"):
            if line:
                self.queue.put(line)

    def flush(self):
        pass

    def send(self, line):
        return self.engine.handle(line)

    def read(self, timeout=3.0):
        line = self.queue.get(timeout=timeout)
        self.seen.append(line)
        return line

    def expect(self, prefix, timeout=3.0):
        """The first line starting with prefix; fails after timeout."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no {prefix!r} within {timeout}s; seen {self.seen[-10:]}")
            try:
                line = self.read(left)
            except queue.Empty:
                continue
            if line.startswith(prefix):
                return line

    def drain(self, wait=0.05):
        lines = []
        time.sleep(wait)
        while True:
            try:
                lines.append(self.read(0))
            except queue.Empty:
                return lines

    def fen(self):
        self.drain(0)
        self.send("d")
        fen = self.expect("Fen: ")[len("Fen: "):]
        self.expect("Chess960: ")  # the last line of `d`
        return fen

    def strings(self, lines):
        return [line for line in lines if line.startswith("info string")]


@pytest.fixture
def uci():
    h = Harness()
    yield h
    h.send("quit")


def bestmoves(lines):
    return [line for line in lines if line.startswith("bestmove")]


# -- handshake and simple answers -------------------------------------------

def test_handshake_lists_options_then_uciok(uci):
    uci.send("uci")
    lines = [uci.read()]
    while lines[-1] != "uciok":
        lines.append(uci.read())
    assert lines[0].startswith("id name Vireo") and lines[1].startswith("id author")
    assert sum(line.startswith("option name ") for line in lines) == 21
    uci.send("isready")
    assert uci.read() == "readyok"


def test_unknown_input_is_named_and_leading_junk_skipped(uci):
    uci.send("xyzzy 1 2")
    assert "unknown command 'xyzzy 1 2'" in uci.read()
    uci.send("joho debug on")
    assert "ignored unknown 'joho'" in uci.read()
    assert uci.engine.debug is True
    uci.send("debug sideways")
    assert "debug takes 'on' or 'off'" in uci.read()


# -- go / bestmove rules ------------------------------------------------------

def test_infinite_holds_bestmove_until_stop(uci):
    uci.send("position startpos")
    uci.send("go infinite depth 2")   # the search ends at once, the bestmove must wait
    time.sleep(0.2)
    assert bestmoves(uci.drain()) == []
    uci.send("stop")
    lines = uci.drain(0.1)
    assert len(bestmoves(lines)) == 1


def test_stop_racing_with_the_start_of_the_search_still_answers(uci):
    uci.send("position startpos")
    for _ in range(30):
        uci.send("go infinite")
        uci.send("stop")    # often before the fake core has cleared its stop flag
    assert len(bestmoves(uci.drain(0.2))) == 30


def test_ponder_then_ponderhit_switches_to_the_clock(uci):
    uci.send("position startpos moves e2e4 e7e5")
    uci.send("go ponder wtime 400 btime 400")
    time.sleep(0.15)
    assert bestmoves(uci.drain()) == []
    started = time.monotonic()
    uci.send("ponderhit")
    uci.expect("bestmove", timeout=1.0)
    assert time.monotonic() - started < 0.4
    assert uci.search.calls[-1].get("infinite") is True


def test_ponderhit_before_the_search_starts_is_not_lost(uci):
    uci.send("position startpos")
    for _ in range(10):
        uci.send("go ponder wtime 100 btime 100")
        uci.send("ponderhit")
        uci.expect("bestmove", timeout=1.0)


def test_ponder_miss_stop_gives_one_bestmove(uci):
    uci.send("position startpos moves e2e4")
    uci.send("go ponder wtime 5000 btime 5000")
    time.sleep(0.05)
    uci.send("stop")
    assert len(bestmoves(uci.drain(0.1))) == 1
    uci.send("ponderhit")  # too late: named, no second bestmove
    lines = uci.drain(0.05)
    assert bestmoves(lines) == [] and "ponderhit ignored" in lines[0]


def test_go_while_searching_stops_the_first(uci):
    uci.send("position startpos")
    uci.send("go infinite")
    time.sleep(0.02)
    uci.send("go depth 3")
    lines = uci.drain(0.2)
    assert len(bestmoves(lines)) == 2
    assert any("go while searching" in line for line in lines)


def test_isready_is_answered_during_a_search(uci):
    uci.send("position startpos")
    uci.send("go infinite")
    assert uci.search.searching.wait(1)
    started = time.monotonic()
    uci.send("isready")
    uci.expect("readyok")
    assert time.monotonic() - started < 0.05
    assert bestmoves(uci.drain()) == []
    uci.send("stop")
    uci.expect("bestmove")


class SlowMachineSearch(FakeSearch):
    """A search on a machine that is far too busy: every timed search ends
    100 ms after its limits say (a stop noticed late, a thread waiting for a
    core), more than Move Overhead (20) and the fixed reserve (50) together.
    A 1 ms answer has no stop to miss and comes back at once."""
    OVERSHOOT_S = 0.1

    def go(self, position, limits, on_info=None):
        result = super().go(position, limits, on_info)
        if limits.get("hard_ms", 0) > 1:
            time.sleep(self.OVERSHOOT_S)
        return result


def test_short_searches_run_on_the_main_thread_alone(uci):
    uci.send("setoption name Threads value 4")
    uci.send("position startpos")
    uci.send("go wtime 100000 btime 100000")
    uci.expect("bestmove")
    assert "threads" not in uci.search.calls[-1]
    uci.send("go wtime 300 btime 300")
    uci.expect("bestmove")
    assert uci.search.calls[-1]["hard_ms"] < 50 and uci.search.calls[-1]["threads"] == 1


class ThreadNotingSearch(FakeSearch):
    def go(self, position, limits, on_info=None):
        self.thread = threading.current_thread()
        return super().go(position, limits, on_info)


def test_a_clock_below_the_reserve_is_answered_by_the_reader_itself():
    """A 1 ms answer runs in the thread that read `go` and its bestmove is out
    when `handle` returns: no worker thread to wait for a core (docs/results.md,
    "Long runs"). A go with time to think still returns at once."""
    h = Harness(ThreadNotingSearch())
    try:
        h.send("position startpos moves e2e4")
        h.send("go wtime 5000 btime 30 winc 0 binc 0")
        assert h.queue.qsize() > 0 and h.search.thread is threading.current_thread()
        assert h.search.calls[-1]["hard_ms"] == 1
        h.expect("bestmove")
        h.send("go wtime 5000 btime 5000 winc 0 binc 0")
        h.expect("bestmove")
        assert h.search.thread is not threading.current_thread()
        # ponder and infinite wait for the GUI: never inline, whatever the clock
        h.send("go ponder wtime 5000 btime 30")
        assert not bestmoves(h.drain(0.05))
        h.send("ponderhit")
        h.expect("bestmove")
        assert h.search.thread is not threading.current_thread()
    finally:
        h.send("quit")


def test_slow_machine_keeps_its_flag_at_one_second_plus_ten_ms():
    """60 moves at 1+0.01, the clock charged as a match runner does (wall
    time from go to bestmove): the measured lag keeps the flag up."""
    uci = Harness(SlowMachineSearch())
    try:
        clock, inc, moves, lowest = 1000, 10, [], 1000
        board = chess.Board()
        for number in range(60):
            if board.is_game_over():
                board, moves = chess.Board(), []
                uci.send("ucinewgame")
            uci.send("position startpos moves " + " ".join(moves))
            started = time.monotonic()
            uci.send(f"go wtime {clock} btime {clock} winc {inc} binc {inc}")
            move = uci.expect("bestmove", timeout=5).split()[1]
            clock -= int((time.monotonic() - started) * 1000)
            assert clock > 0, f"lost on time at move {number + 1}"
            lowest = min(lowest, clock)
            clock += inc
            moves.append(move)
            board.push_uci(move)
        assert uci.engine.lag.worst >= 90          # the overshoot was seen
        assert len(uci.search.calls) == 60
        # it did think on some moves, not only answer in 1 ms
        assert sum(call["hard_ms"] > 1 for call in uci.search.calls) >= 5
    finally:
        uci.send("quit")


def test_quit_during_a_search_is_prompt(uci):
    uci.send("position startpos")
    uci.send("go infinite")
    started = time.monotonic()
    assert uci.send("quit") is False
    assert time.monotonic() - started < 0.2


def test_clock_gives_soft_and_hard_limits_below_the_remaining_time(uci):
    uci.send("position startpos")
    uci.send("go wtime 1000 btime 1000 winc 10 binc 10")
    uci.expect("bestmove")
    limits = uci.search.calls[-1]
    assert 0 < limits["soft_ms"] <= limits["hard_ms"] < 1000 - 20
    uci.send("go wtime 300 btime 9000 movestogo 1")
    uci.expect("bestmove")
    assert uci.search.calls[-1]["hard_ms"] < 300 - 20
    # at movetime only the measured lag (the fake search's own overshoot) is kept
    # back, not Move Overhead (20): the search gets the time it was given
    lag = uci.engine.lag.reserve_ms()
    uci.send("go movetime 100")
    uci.expect("bestmove")
    budget = 100 - min(lag, 50)
    assert budget - 5 <= uci.search.calls[-1]["soft_ms"] == uci.search.calls[-1]["hard_ms"] <= budget


def test_movetime_keeps_no_move_overhead_back(uci):
    uci.send("position startpos")
    budgets = []
    for overhead in (0, 100):
        uci.send(f"setoption name Move Overhead value {overhead}")
        uci.engine.lag.estimate = 0.0           # no lag measured: only Move Overhead could count
        uci.send("go movetime 200")
        uci.expect("bestmove")
        budgets.append(uci.search.calls[-1]["hard_ms"])
    # equal but for the few ms between reading `go` and planning (spent_ms)
    assert min(budgets) >= 190 and abs(budgets[0] - budgets[1]) <= 5, budgets


class DeafSearch(FakeSearch):
    """A core that ignores its time limits: only stop() ends it."""

    def go(self, position, limits, on_info=None):
        limits = {k: v for k, v in limits.items() if k not in ("soft_ms", "hard_ms", "movetime")}
        limits["infinite"] = True
        return super().go(position, limits, on_info)


def test_watchdog_stops_a_core_that_misses_its_hard_limit():
    h = Harness(DeafSearch())
    h.send("position startpos")
    started = time.monotonic()
    h.send("go wtime 200 btime 200 movestogo 1")
    h.expect("bestmove", timeout=1.0)
    assert time.monotonic() - started < 0.2
    h.send("quit")


class BrokenSearch(FakeSearch):
    def go(self, position, limits, on_info=None):
        raise RuntimeError("core exploded")


def test_a_failing_search_reports_and_still_plays_a_legal_move():
    h = Harness(BrokenSearch())
    h.send("position startpos moves e2e4")
    h.send("go wtime 1000 btime 1000")
    best = h.expect("bestmove").split()[1]
    assert best in [m.uci() for m in chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves]
    assert any("error: search failed: RuntimeError: core exploded" in line for line in h.seen)
    assert not any("Traceback" in line for line in h.seen)
    h.send("quit")


def test_go_before_any_position_searches_the_start_position():
    h = Harness()
    h.send("go depth 1")
    assert "go before any position" in h.expect("info string")
    assert h.expect("bestmove").split()[1] in [m.uci() for m in chess.Board().legal_moves]
    h.send("quit")


# -- position -----------------------------------------------------------------

def test_a_bad_position_command_leaves_the_previous_position(uci):
    uci.send("position startpos moves e2e4 e7e5")
    good = uci.fen()
    for bad in ("position fen 8/8/8 w - - 0 1", "position startpos moves e2e4 e2e4",
                "position startpos moves e2e4 e7e5 g1f3 xx", "position fen", "position sideways",
                "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e5"):
        uci.send(bad)
        message = uci.read()
        assert message.startswith("info string") and "position unchanged" in message
        assert uci.fen() == good


def test_chess960_castling_is_king_takes_rook(uci):
    fen = "rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1"
    uci.send("setoption name UCI_Chess960 value true")
    uci.send(f"position fen {fen} moves b1a1")
    assert uci.fen().startswith("rk2r3/8/8/8/8/8/8/2KRR3 b")
    uci.send("go depth 1")
    best = uci.expect("bestmove").split()[1]
    board = chess.Board(fen, chess960=True)
    board.push_uci("b1a1")
    assert chess.Move.from_uci(best) in board.legal_moves


def test_a_game_longer_than_the_history_is_accepted(uci):
    shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"] * 1300   # 5200 plies
    uci.send("position startpos moves " + " ".join(shuffle))
    assert not uci.strings(uci.drain(0))
    assert uci.fen().startswith("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ")


def test_searchmoves_keep_only_legal_moves(uci):
    uci.send("position startpos")
    uci.send("go depth 2 searchmoves e2e4 e2e5 d2d4")
    assert "ignored illegal or malformed e2e5" in uci.expect("info string")
    assert uci.expect("bestmove").split()[1] in ("e2e4", "d2d4")
    assert uci.search.calls[-1]["searchmoves"] == ["e2e4", "d2d4"]


# -- options --------------------------------------------------------------------

def test_multipv_and_wdl_show_in_info_lines(uci):
    uci.send("setoption name multipv value 3")
    uci.send("setoption name UCI_ShowWDL value true")
    uci.send("position startpos")
    uci.send("go depth 2")
    lines = uci.drain(0.1)
    infos = [line for line in lines if line.startswith("info depth 2")]
    assert {line.split()[6] for line in infos} == {"1", "2", "3"}  # "info depth 2 seldepth 4 multipv N"
    assert all(" wdl " in line for line in infos)
    assert uci.search.calls[-1]["multipv"] == 3


def test_hash_and_threads_reach_the_core_and_bad_sizes_are_refused(uci):
    uci.send("setoption name Hash value 64")
    uci.send("setoption name threads value 2")
    assert (uci.search.hash_mb, uci.search.threads) == (64, 2)
    uci.send("setoption name Hash value 60000")      # the fake (or this machine) cannot
    assert "kept 64" in uci.read()
    assert uci.search.hash_mb == 64 and uci.engine.options["Hash"] == 64
    uci.send("setoption name Clear Hash")
    uci.send("ucinewgame")
    assert uci.search.cleared == 2


def test_hash_change_during_a_search_waits_for_its_end(uci):
    uci.send("position startpos")
    uci.send("go infinite")
    uci.send("setoption name Hash value 32")
    assert "takes effect when the current search ends" in uci.expect("info string")
    assert uci.search.hash_mb == 16
    uci.send("stop")
    uci.send("isready")
    uci.expect("readyok")
    assert uci.search.hash_mb == 32


def test_limit_strength_spends_a_node_budget_and_picks_among_lines():
    search = FakeSearch(score_by_move={"e2e4": 40, "d2d4": 30, "g1f3": 20, "c2c4": 10})
    h = Harness(search)
    h.send("setoption name UCI_LimitStrength value true")
    h.send("setoption name UCI_Elo value 1000")
    h.send("position startpos")
    picks = []
    for _ in range(40):
        h.send("go wtime 10000 btime 10000")
        picks.append(h.expect("bestmove").split()[1])
    limits = search.calls[-1]
    assert limits["multipv"] == 4 and limits["nodes"] <= 1000
    assert set(picks) <= {"e2e4", "d2d4", "g1f3", "c2c4"}
    assert 1 < len(set(picks)) and picks.count("e2e4") > 5
    h.send("quit")


def test_own_book_plays_at_once_but_not_for_fixed_depth(uci):
    uci.send("setoption name OwnBook value true")
    uci.send("setoption name BookMode value best")
    uci.send("position startpos")
    calls = len(uci.search.calls)
    uci.send("go wtime 60000 btime 60000")
    assert "book move" in uci.expect("info string book move")
    best = uci.expect("bestmove").split()[1]
    assert chess.Move.from_uci(best) in chess.Board().legal_moves
    # one short search of the book move alone, for its info line (go.py, BOOK_CHECK_*)
    assert len(uci.search.calls) == calls + 1
    check = uci.search.calls[-1]
    assert check["searchmoves"] == [best] and check["depth"] == BOOK_CHECK_DEPTH
    assert check["hard_ms"] <= BOOK_CHECK_MS
    uci.send("go depth 2")
    uci.expect("bestmove")
    assert len(uci.search.calls) == calls + 2


def test_a_missing_book_is_reported_and_the_engine_plays_on(uci):
    uci.send("setoption name BookFile value /nonexistent/book.bin")
    uci.send("setoption name OwnBook value true")
    assert "opening book not found" in uci.expect("info string")
    uci.send("position startpos")
    uci.send("go wtime 1000 btime 1000")
    uci.expect("bestmove")


def test_syzygy_root_restricts_the_moves_and_reports_the_tablebase_score(uci):
    from conftest import shared_data
    uci.send(f"setoption name SyzygyPath value {shared_data('syzygy')}")
    assert "Syzygy:" in uci.expect("info string")
    uci.send(f"position fen {KQK}")
    uci.send("go wtime 1000 btime 1000")
    message = uci.expect("info string tablebase root")
    info = uci.expect("info depth")
    uci.expect("bestmove")
    searched = uci.search.calls[-1]["searchmoves"]
    assert "score cp 2" in info and int(info.split("score cp ")[1].split()[0]) > 19000
    assert 0 < len(searched) < len(list(chess.Board(KQK).legal_moves))
    assert f"searching {len(searched)} of" in message
    assert int(info.split("tbhits ")[1].split()[0]) > 0


class SlotSpy:
    """Stands in for the book or tablebase slot: records whether each get()
    (which closes the old resource) came while a search was running."""

    def __init__(self, harness):
        self.harness = harness
        self.calls = []

    def get(self, *args):
        self.calls.append((args, self.harness.engine.runner.busy()))
        return None


def test_book_and_tables_are_not_swapped_under_a_running_search(uci):
    """setoption SyzygyPath / BookFile during a search used to close the files
    the search was probing (the 100,000-line fuzz: `search failed: OSError:
    Bad file descriptor`); the change waits until the search is over."""
    books, tables = SlotSpy(uci), SlotSpy(uci)
    uci.engine.books, uci.engine.tablebases = books, tables
    uci.send("position startpos")
    uci.send("go infinite")
    uci.search.searching.wait(2)
    uci.send("setoption name SyzygyPath value /some/where")
    uci.send("setoption name OwnBook value true")
    uci.send("setoption name BookFile value /some/book.bin")
    uci.send("isready")
    uci.expect("readyok")
    assert books.calls == tables.calls == []          # nothing touched under the search
    uci.send("stop")
    uci.expect("bestmove")
    uci.send("isready")
    uci.expect("readyok")
    assert tables.calls == [(("/some/where",), False)]
    assert books.calls == [(("/some/book.bin", 20), False)]


# -- extras -------------------------------------------------------------------

def test_perft_divide_matches_python_chess(uci):
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    uci.send(f"position fen {fen}")
    uci.send("go perft 2")
    total = int(uci.expect("Nodes searched:").split()[-1])
    divide = {line.split(":")[0]: int(line.split()[1]) for line in uci.seen if line.count(":") == 1
              and len(line.split(":")[0]) in (4, 5)}
    board = chess.Board(fen)
    expected = {}
    for move in board.legal_moves:
        board.push(move)
        expected[move.uci()] = board.legal_moves.count()
        board.pop()
    assert divide == expected and total == sum(expected.values()) == 2039
    assert bestmoves(uci.drain()) == []


def test_d_and_eval(uci):
    uci.send("position startpos moves e2e4")
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert uci.fen() == fen
    assert f"Key: {chess.polyglot.zobrist_hash(chess.Board(fen)):016X}" in uci.seen
    uci.send("eval")
    assert "mobility" in "".join(uci.drain())


def test_output_lines_are_whole_under_concurrency():
    h = Harness()
    threads = [threading.Thread(target=lambda: [h.engine.out.send("x" * 200) for _ in range(200)])
               for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    lines = h.drain(0)
    assert len(lines) == 800 and all(line == "x" * 200 for line in lines)
