"""Every UCI option does what it names, seen through the protocol.

test_uci_engine.py sets all the options at once and checks that a legal move
comes back, which an engine ignoring every one of them would pass too. Here
each option is changed alone and its effect is read from what the engine
prints: the threads that searched (`debug on` prints each thread's nodes), the
time planned (`debug on` prints the soft and hard limits), hashfull, the
number of lines, wdl, tbhits, the tablebase score, the book move, the
castling notation.
"""
import chess
import chess.polyglot
import pytest

from conftest import shared_data
from uci_real_engine import RawEngine

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9"
KQK = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"
# KBN v K, a win 62 plies from the next capture (DTZ): certain with a fresh
# 50-move count, spoiled with 60 plies already on it (62 + 60 > 99).
KBNK_LATE = "5B2/7N/8/8/4k3/8/8/K7 w - - 60 80"
# Five men, not in the shared 3-4 men tables: every capture leads into them.
KRPKN = "8/8/3k4/8/2n5/8/3PR3/4K3 w - - 0 1"
ITALIAN = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


@pytest.fixture
def raw():
    engine = RawEngine()
    engine.handshake()
    engine.send("setoption name OwnBook value false")
    yield engine
    engine.close()
    assert not any("Traceback" in line for _, line in engine.seen)


def search(raw, fen, go):
    """All lines of one search, bestmove last."""
    raw.send(f"position fen {fen}")
    start = len(raw.seen)
    raw.send(go)
    raw.expect("bestmove", timeout=60)
    return [line for _, line in raw.seen[start:]]


def field(line, name):
    """The value after `name` in an info line, as an int (None if absent)."""
    words = line.split()
    return int(words[words.index(name) + 1]) if name in words else None


def last_info(lines):
    return [line for line in lines if line.startswith("info depth")][-1]


def test_threads_sets_the_threads_that_search(raw):
    raw.send("debug on")
    for threads in (1, 3):
        raw.send(f"setoption name Threads value {threads}")
        lines = search(raw, MIDDLEGAME, "go nodes 200000")
        counts = [int(n) for n in next(line for line in lines
                                       if line.startswith("info string thread nodes:")).split(":")[1].split()]
        assert len(counts) == threads
        assert min(counts) > 1000, counts          # each helper really searched


def test_hash_size_changes_how_full_the_table_gets(raw):
    full = {}
    for mb in (1, 64):
        raw.send(f"setoption name Hash value {mb}")
        raw.send("setoption name Clear Hash")
        full[mb] = field(last_info(search(raw, MIDDLEGAME, "go nodes 150000")), "hashfull")
    assert full[1] > 2 * full[64] + 50, full


def test_clear_hash_empties_the_table(raw):
    raw.send("setoption name Hash value 1")
    assert field(last_info(search(raw, MIDDLEGAME, "go nodes 100000")), "hashfull") > 100
    raw.send("setoption name Clear Hash")
    assert field(last_info(search(raw, MIDDLEGAME, "go depth 1")), "hashfull") < 5


def test_multipv_sets_the_number_of_lines(raw):
    for lines_wanted in (1, 3):
        raw.send(f"setoption name MultiPV value {lines_wanted}")
        lines = search(raw, MIDDLEGAME, "go depth 6")
        final = [line for line in lines if line.startswith("info depth 6 ")]
        assert sorted({field(line, "multipv") for line in final}) == list(range(1, lines_wanted + 1))


def test_move_overhead_is_kept_back_from_the_clock(raw):
    raw.send("debug on")
    soft = {}
    for overhead in (0, 5000):
        raw.send(f"setoption name Move Overhead value {overhead}")
        raw.send(f"position fen {MIDDLEGAME}")
        raw.send("go wtime 100000 btime 100000")
        _, line = raw.expect("info string time:")
        raw.send("stop")
        raw.expect("bestmove")
        soft[overhead] = int(line.split("soft ")[1].split()[0])
    # 100 s over about 50 moves: 5 s of overhead is about 100 ms less a move
    assert soft[5000] <= soft[0] - 80, soft


def test_show_wdl_adds_wdl(raw):
    for on in (False, True):
        raw.send(f"setoption name UCI_ShowWDL value {str(on).lower()}")
        info = last_info(search(raw, MIDDLEGAME, "go depth 5"))
        assert ("wdl" in info.split()) == on
        if on:
            w, d, l = (int(x) for x in info.split("wdl ")[1].split()[:3])
            assert w + d + l == 1000


def test_limit_strength_and_elo_set_the_plan(raw):
    lines = search(raw, MIDDLEGAME, "go wtime 10000 btime 10000")
    assert not any("UCI_LimitStrength" in line for line in lines)        # off by default
    raw.send("setoption name UCI_LimitStrength value true")
    nodes = {}
    for elo in (1200, 2400):
        raw.send(f"setoption name UCI_Elo value {elo}")
        line = next(line for line in search(raw, MIDDLEGAME, "go wtime 10000 btime 10000")
                    if "UCI_LimitStrength" in line)
        assert f"Elo {elo}" in line
        nodes[elo] = int(line.split("Elo ")[1].split(", ")[1].split()[0])
    assert nodes[1200] < nodes[2400]


def test_own_book_book_depth_and_book_mode(raw):
    raw.send("position startpos")
    raw.send("go wtime 10000 btime 10000")
    raw.expect("bestmove")
    assert not any("book move" in line for _, line in raw.seen)            # OwnBook false
    raw.send("setoption name OwnBook value true")
    raw.send("setoption name BookMode value best")
    picks = set()
    for _ in range(3):
        lines = search(raw, chess.STARTING_FEN, "go wtime 10000 btime 10000")
        assert any("book move" in line and "(best," in line for line in lines)
        picks.add(lines[-1].split()[1])
    assert len(picks) == 1                                  # best: always the same move
    # BookDepth 1: only the first ply comes from the book
    raw.send("setoption name BookDepth value 1")
    after_e4 = chess.Board()
    after_e4.push_uci("e2e4")
    lines = search(raw, after_e4.fen(), "go depth 3")
    lines += search(raw, after_e4.fen(), "go wtime 10000 btime 10000")
    assert not any("book move" in line for line in lines)


def test_syzygy_path_and_probe_limit(raw):
    lines = search(raw, KQK, "go depth 6")
    assert not any("tablebase root" in line for line in lines)             # no path: no tables
    assert field(last_info(lines), "tbhits") == 0
    raw.send(f"setoption name SyzygyPath value {shared_data('syzygy')}")
    lines = search(raw, KQK, "go depth 6")
    assert any("tablebase root" in line for line in lines)
    assert field(last_info(lines), "tbhits") > 0
    raw.send("setoption name SyzygyProbeLimit value 0")
    lines = search(raw, KQK, "go depth 6")
    assert not any("tablebase root" in line for line in lines)
    assert field(last_info(lines), "tbhits") == 0


def test_syzygy_probe_depth_decides_where_the_search_probes(raw):
    raw.send(f"setoption name SyzygyPath value {shared_data('syzygy')}")
    raw.send("setoption name SyzygyProbeLimit value 4")
    hits = {}
    for depth in (1, 100):
        raw.send(f"setoption name SyzygyProbeDepth value {depth}")
        raw.send("setoption name Clear Hash")
        hits[depth] = field(last_info(search(raw, KRPKN, "go depth 9")), "tbhits")
    # at the limit (4 men) only nodes of depth >= SyzygyProbeDepth probe;
    # 3 men after two captures still may at any depth
    assert hits[1] > 2 * hits[100] + 10, hits


def test_syzygy_50_move_rule_decides_a_win_the_clock_spoils(raw):
    raw.send(f"setoption name SyzygyPath value {shared_data('syzygy')}")
    scores = {}
    for rule in (True, False):
        raw.send(f"setoption name Syzygy50MoveRule value {str(rule).lower()}")
        info = last_info(search(raw, KBNK_LATE, "go depth 4"))
        scores[rule] = info.split("score ")[1].split()[:2]
    kind, value = scores[True]
    assert kind == "cp" and 0 < int(value) < 50            # a cursed win: nearly a draw
    kind, value = scores[False]
    assert kind == "mate" and int(value) > 0 or kind == "cp" and int(value) > 19000


def test_chess960_changes_the_castling_notation(raw):
    for on, move in ((False, "e1g1"), (True, "e1h1")):
        raw.send(f"setoption name UCI_Chess960 value {str(on).lower()}")
        lines = search(raw, ITALIAN, f"go depth 1 searchmoves {move}")
        assert lines[-1].split()[1] == move
