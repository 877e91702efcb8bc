"""Unit tests of the UCI layer's pure parts: options, parsing, formatting, WDL, strength, time."""
import math
import random

import pytest

from engine.uci import strength
from engine.uci.options import OptionError, build_option_table, parse_setoption
from engine.uci.output import format_bestmove, format_info
from engine.uci.parse import UciSyntaxError, parse_go, parse_position
from engine.uci.timeman import allocate
from engine.uci.wdl import wdl_from_score


def table():
    return build_option_table(elo_min=1000, elo_max=2400, elo_default=1500, own_book_default=True)


# -- options ----------------------------------------------------------------

def test_declarations_use_the_usual_casing():
    lines = table().declarations()
    names = [line.split(" type ")[0][len("option name "):] for line in lines]
    for expected in ("Hash", "Clear Hash", "Threads", "MultiPV", "Ponder", "Move Overhead",
                     "UCI_Chess960", "UCI_AnalyseMode", "UCI_ShowWDL", "UCI_LimitStrength", "UCI_Elo", "OwnBook",
                     "BookFile", "BookDepth", "BookMode", "SyzygyPath", "SyzygyProbeDepth",
                     "SyzygyProbeLimit", "Syzygy50MoveRule", "EvalFile", "Use NNUE"):
        assert expected in names
    assert "option name Hash type spin default 16 min 1 max 65536" in lines
    assert "option name BookMode type combo default weighted var best var weighted" in lines
    assert "option name SyzygyPath type string default <empty>" in lines
    assert "option name Clear Hash type button" in lines
    assert "option name EvalFile type string default <empty>" in lines
    assert "option name Use NNUE type check default true" in lines


def test_the_readme_option_table_lists_exactly_the_declared_options():
    """README stays true: one row per option the engine declares, no more."""
    from conftest import REPO
    readme = (REPO / "README.md").read_text()
    section = readme[readme.index("| option | type | default |"):]
    rows = []
    for line in section.splitlines()[2:]:
        if not line.startswith("|"):
            break
        rows.append(line.split("|")[1].strip())
    declared = [line.split(" type ")[0][len("option name "):] for line in table().declarations()]
    assert sorted(rows) == sorted(declared)


def test_names_match_case_insensitively_and_values_are_typed():
    t = table()
    t.set("hash", "64")
    t.set("MOVE   overhead", "100")
    t.set("uci_showwdl", "TRUE")
    t.set("bookmode", "BEST")
    assert t["Hash"] == 64 and t["Move Overhead"] == 100
    assert t["UCI_ShowWDL"] is True and t["BookMode"] == "best"


@pytest.mark.parametrize("name,value,fragment", [
    ("Hash", "0", "out of range 1..65536"),
    ("Hash", "lots", "takes an integer"),
    ("Ponder", "maybe", "true or false"),
    ("BookMode", "random", "one of best, weighted"),
    ("Threads", None, "needs a value"),
    ("NoSuchOption", "1", "unknown option"),
])
def test_bad_values_are_refused_and_the_old_value_kept(name, value, fragment):
    t = table()
    before = {o.name: o.value for o in t}
    with pytest.raises(OptionError, match=fragment):
        t.set(name, value)
    assert {o.name: o.value for o in t} == before


def test_string_options_take_spaces_and_empty():
    t = table()
    assert parse_setoption("setoption name SyzygyPath value /a b/c:/d") == ("SyzygyPath", "/a b/c:/d")
    assert parse_setoption("setoption name Clear Hash") == ("Clear Hash", None)
    assert parse_setoption("setoption name Move Overhead value 30") == ("Move Overhead", "30")
    t.set("BookFile", "<empty>")
    assert t["BookFile"] == ""
    name, raw = parse_setoption("setoption name BookFile value ")
    t.set(name, raw)
    assert t["BookFile"] == ""
    with pytest.raises(OptionError):
        parse_setoption("setoption value 3")


# -- parsing ----------------------------------------------------------------

def test_parse_position():
    assert parse_position(["startpos"]) == (None, [])
    assert parse_position(["startpos", "moves", "e2e4", "e7e5"]) == (None, ["e2e4", "e7e5"])
    fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1"
    assert parse_position(["fen"] + fen.split() + ["moves", "a1a2"]) == (fen, ["a1a2"])
    for bad in ([], ["fen"], ["startpos", "e2e4"], ["somewhere"]):
        with pytest.raises(UciSyntaxError):
            parse_position(bad)


def test_parse_go_reads_every_parameter():
    go = parse_go("searchmoves e2e4 d2d4 ponder wtime 1000 btime 2000 winc 10 binc 20 "
                  "movestogo 5 depth 7 nodes 5000 mate 3 movetime 300 infinite".split())
    assert go.searchmoves == ["e2e4", "d2d4"] and go.ponder and go.infinite
    assert (go.wtime, go.btime, go.winc, go.binc, go.movestogo) == (1000, 2000, 10, 20, 5)
    assert (go.depth, go.nodes, go.mate, go.movetime) == (7, 5000, 3, 300)
    assert go.warnings == []
    assert parse_go(["perft", "3"]).perft == 3


def test_parse_go_warns_and_keeps_the_rest():
    go = parse_go("depth x wtime -50 nodes -3 movestogo 0 bogus depth".split())
    assert go.depth is None and go.wtime == -50 and go.nodes is None and go.movestogo is None
    assert len(go.warnings) == 4  # depth x, nodes -3, bogus, depth without a number


# -- formatting -------------------------------------------------------------

def test_format_info_orders_fields_as_uci():
    info = {"depth": 5, "seldepth": 9, "multipv": 1, "score": ("cp", 31), "bound": "lower",
            "nodes": 1234, "nps": 100000, "hashfull": 3, "tbhits": 0, "time": 12, "pv": ["e2e4", "e7e5"]}
    assert format_info(info) == ("info depth 5 seldepth 9 multipv 1 score cp 31 lowerbound nodes 1234 "
                                 "nps 100000 hashfull 3 tbhits 0 time 12 pv e2e4 e7e5")
    assert "score mate -2 wdl 0 0 1000 nodes" in format_info(dict(info, score=("mate", -2), bound=None),
                                                             show_wdl=True)
    assert format_info({"depth": 20, "currmove": "g1f3", "currmovenumber": 4}) == \
        "info depth 20 currmove g1f3 currmovenumber 4"
    assert format_bestmove("e2e4", "e7e5") == "bestmove e2e4 ponder e7e5"
    assert format_bestmove(None) == "bestmove (none)"


def test_wdl_model_is_a_probability_and_monotone():
    previous_win = -1
    for cp in range(-1000, 1001, 25):
        w, d, l = wdl_from_score("cp", cp)
        assert w + d + l == 1000 and min(w, d, l) >= 0
        assert (w, d, l) == tuple(reversed(wdl_from_score("cp", -cp)))
        assert w >= previous_win
        previous_win = w
    assert wdl_from_score("cp", 0)[1] > 700           # an even score is mostly a draw
    assert wdl_from_score("cp", 150)[0] in (499, 500, 501)  # A: a 50% win at 1.50
    assert wdl_from_score("mate", 3) == (1000, 0, 0) and wdl_from_score("mate", -1) == (0, 0, 1000)
    assert wdl_from_score("cp", 10**6) == (1000, 0, 0)


# -- strength ---------------------------------------------------------------

def test_strength_plan_grows_with_elo():
    plans = [strength.plan_for(elo) for elo in range(strength.ELO_MIN, strength.ELO_MAX + 1, 100)]
    assert all(a.nodes < b.nodes for a, b in zip(plans, plans[1:]))
    assert all(a.temperature > b.temperature for a, b in zip(plans, plans[1:]))
    assert strength.plan_for(0) == strength.plan_for(strength.ELO_MIN)


def _lines(scores):
    return {k + 1: {"score": ("cp", s), "pv": [f"m{k}", f"r{k}"]} for k, s in enumerate(scores)}


def test_softmax_choice_weakens_with_lower_elo():
    lines = _lines([50, 20, -40, -300])
    rng = random.Random(1)

    def best_share(elo):
        plan = strength.plan_for(elo)
        picks = [strength.choose_line(lines, plan, rng)[0] for _ in range(2000)]
        return picks.count("m0") / len(picks), picks.count("m3") / len(picks)

    weak_best, weak_blunder = best_share(strength.ELO_MIN)
    strong_best, strong_blunder = best_share(strength.ELO_MAX)
    assert strong_best > 0.95 and strong_blunder == 0
    assert 0.3 < weak_best < 0.8 and weak_blunder < 0.05
    # The softmax weights, checked against the formula at ELO_MIN.
    t = strength.plan_for(strength.ELO_MIN).temperature
    expected = 1 / sum(math.exp((s - 50) / t) for s in (50, 20, -40, -300))
    assert abs(weak_best - expected) < 0.04


def test_a_forced_mate_is_never_thrown_away():
    lines = {1: {"score": ("mate", 2), "pv": ["a", "b"]}, 2: {"score": ("cp", 900), "pv": ["c"]}}
    plan = strength.plan_for(strength.ELO_MIN)
    assert all(strength.choose_line(lines, plan, random.Random(i)) == ("a", "b") for i in range(50))
    assert strength.choose_line({}, plan) is None


# -- time -------------------------------------------------------------------

@pytest.mark.parametrize("wtime,winc,mtg,overhead", [
    (1000, 10, None, 20), (60000, 0, None, 20), (5000, 0, 1, 20), (30, 0, None, 20),
    (1, 0, None, 0), (-100, 0, None, 20), (300000, 3000, 40, 100),
])
def test_allocation_keeps_a_margin(wtime, winc, mtg, overhead):
    soft, hard = allocate(wtime, 10**6, winc, 0, mtg, True, overhead, 30)
    assert 1 <= soft <= hard
    usable = wtime - overhead
    if usable > 10:
        assert hard <= 0.8 * usable + 1


def test_clock_reserve_is_kept_whatever_the_allocator_says():
    from engine.uci.clock import RESERVE_MS, clamp_to_clock
    assert clamp_to_clock(900, 990, 1000, 20) == (900, 1000 - 20 - RESERVE_MS)
    assert clamp_to_clock(5, 8, 60, 20) == (1, 1)            # below the reserve: a 1 ms answer
    assert clamp_to_clock(30, 120, 10_000, 20) == (30, 120)  # plenty of time: unchanged
    assert clamp_to_clock(30, 120, None, 20) == (30, 120)
