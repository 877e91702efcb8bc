"""Eval damping toward the 50-move rule (search.pxi's rule50_damped): the
static evaluation the search reads shrinks toward a draw as the halfmove
clock grows, so the search prefers lines that reset it when ahead."""
import pytest

from engine import _core
from engine._core import Position, Search, _search_static_eval

# White a rook up, no pawn to push: a win only if something happens
ROOK_UP = "4k3/8/8/8/8/8/3R4/4K3 w - - {} 60"


@pytest.fixture
def damp():
    default = _core.get_tunables()["RULE50_DAMP"]
    yield lambda value: _core.set_tunable("RULE50_DAMP", value)
    _core.set_tunable("RULE50_DAMP", default)


def test_the_static_evaluation_shrinks_with_the_halfmove_clock(damp):
    damp(200)
    search = Search()
    raw, fresh = _search_static_eval(search, Position(ROOK_UP.format(0)))
    assert raw > 300 and fresh == raw
    raw60, at60 = _search_static_eval(search, Position(ROOK_UP.format(60)))
    assert raw60 == raw and at60 == raw * 140 // 200
    _, at99 = _search_static_eval(search, Position(ROOK_UP.format(99)))
    assert 0 < at99 < at60
    damp(0)
    assert _search_static_eval(search, Position(ROOK_UP.format(60))) == (raw, raw)


def test_the_search_score_follows(damp):
    damp(200)
    search = Search()
    scores = {}
    for clock in (0, 80):
        search.clear_hash()
        lines = []
        search.go(Position(ROOK_UP.format(clock)), {"depth": 6}, lines.append)
        kind, scores[clock] = [line for line in lines if "score" in line][-1]["score"]
        assert kind == "cp"
    assert 0 < scores[80] < scores[0] * 3 // 4
