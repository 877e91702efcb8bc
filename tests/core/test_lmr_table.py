"""Step 16's late-move-reduction table and its two tunables: the table is
base + ln(depth) ln(move) / div (in hundredths, LMR_BASE_PCT and
LMR_DIV_PCT), rebuilt whenever either is set, and a table that reduces
more searches a smaller tree to the same depth."""
import math

import pytest

from engine import _core
from engine._core import Position, Search, _lmr_reduction

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 3 8"


@pytest.fixture
def lmr():
    defaults = {name: _core.get_tunables()[name] for name in ("LMR_BASE_PCT", "LMR_DIV_PCT")}
    yield lambda name, value: _core.set_tunable(name, value)
    for name, value in defaults.items():
        _core.set_tunable(name, value)


def table(base, div):
    return [[_lmr_reduction(d, m) for m in range(64)] for d in range(64)], \
        [[0 if d == 0 or m == 0 else int(base + math.log(d) * math.log(m) / div)
          for m in range(64)] for d in range(64)]


def test_the_default_table_is_the_formula(lmr):
    tunables = _core.get_tunables()
    assert (tunables["LMR_BASE_PCT"], tunables["LMR_DIV_PCT"]) == (75, 225)
    got, want = table(0.75, 2.25)
    assert got == want
    assert got[1][1] == 0 and got[10][10] == 3 and got[20][30] == 5


def test_setting_a_tunable_rebuilds_the_table(lmr):
    lmr("LMR_DIV_PCT", 150)
    got, want = table(0.75, 1.5)
    assert got == want and got[20][30] == 7
    lmr("LMR_BASE_PCT", 0)
    got, want = table(0.0, 1.5)
    assert got == want and got[2][2] == 0


def nodes_to_depth(depth):
    search = Search()
    search.clear_hash()
    search.go(Position(MIDDLEGAME), {"depth": depth}, lambda line: None)
    return search.nodes


def test_more_reduction_searches_a_smaller_tree(lmr):
    default = nodes_to_depth(10)
    lmr("LMR_DIV_PCT", 150)
    assert nodes_to_depth(10) < default * 3 // 4
    lmr("LMR_DIV_PCT", 225)
    assert nodes_to_depth(10) == default
