"""Evaluation: symmetry, incremental piece-square sums, the pawn table,
drawish endings, sanity, and the weights' round trip."""
import random

import chess
import pytest

from engine import _core
from engine._core import Position, Search, eval_terms, static_eval
from engine.tools.tuning.start_weights import start_weights
from engine.tools.tuning.weights_file import format_weights

from conftest import white_view


def test_colour_flip_symmetry(data_fens):
    """A position and its colour-flipped mirror (python-chess Board.mirror) get
    the same score for the side to move."""
    bad = [fen for fen in data_fens
           if static_eval(Position(fen)) != static_eval(Position(chess.Board(fen).mirror().fen()))]
    assert bad == []


def test_symmetry_of_the_terms(data_fens):
    for fen in data_fens[:300]:
        a = eval_terms(Position(fen))
        b = eval_terms(Position(chess.Board(fen).mirror().fen()))
        for term, value in a.items():
            if isinstance(value, tuple):
                # tempo belongs to the side to move, which the mirror swaps too
                assert b[term] == (-value[0], -value[1]), (fen, term)
        assert b["score"] == -a["score"] and b["phase"] == a["phase"] and b["scale"] == a["scale"]


def test_incremental_psq_matches_scratch_after_random_playouts():
    rng = random.Random(7)
    starts = [None, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
              "8/2P5/8/8/8/8/5pk1/K7 w - - 0 1"]
    for start in starts:
        for _ in range(20):
            p = Position(start)
            for _ in range(rng.randrange(10, 120)):
                moves = p.legal_moves()
                if not moves:
                    break
                p.push(rng.choice(moves))
                incremental, scratch = _core.psq_incremental_and_scratch(p)
                assert incremental == scratch, p.fen()
            while p.ply:
                p.pop()
                incremental, scratch = _core.psq_incremental_and_scratch(p)
                assert incremental == scratch, p.fen()


def test_pawn_table_agrees_with_fresh_computation(data_fens):
    """static_eval and eval_terms compute the pawn terms afresh; Search.evaluate
    goes through the main thread's pawn table (twice: the second call is a hit)."""
    search = Search()
    for fen in data_fens[:500]:
        p = Position(fen)
        first, second = search.evaluate(p), search.evaluate(p)
        fresh = eval_terms(p)["score"]
        assert first == second == static_eval(p) == (fresh if p.turn else -fresh), fen


def test_pawn_tables_are_stale_after_new_weights(data_fens, restore_weights):
    """Entries cached with the old weights are never used after a change: a
    search thread's table (filled here by a 4-thread search and by evaluate)
    is invalidated without being cleared."""
    search = Search()
    search.set_threads(4)
    fens = data_fens[:200]
    search.go(Position(fens[0]), {"nodes": 20_000})
    before = [search.evaluate(Position(fen)) for fen in fens]
    weights = _core.get_eval_weights()
    pawn_terms = {"pawns", "king_safety"}
    changed = [(mg * 2 + 7, eg * 2 + 7) if term in pawn_terms else (mg, eg)
               for (mg, eg), term in zip(weights, _weight_terms())]
    _core.set_eval_weights(changed)
    after = [search.evaluate(Position(fen)) for fen in fens]
    assert after == [static_eval(Position(fen)) for fen in fens]
    assert after != before      # the change did move the pawn terms


def _weight_terms():
    """The term (eval_terms' name) that each weight belongs to, in layout order."""
    terms = []
    for _name, _start, size, term in _core.eval_layout():
        terms += [term] * size
    return terms


@pytest.mark.parametrize("fen", [
    "8/8/4k3/8/8/3K4/8/8 w - - 0 1",            # K v K
    "8/8/4k3/8/8/3KN3/8/8 w - - 0 1",           # K+N v K
    "8/8/4k3/8/8/3KB3/8/8 b - - 0 1",           # K+B v K
    "8/8/4k3/8/8/2NKN3/8/8 w - - 0 1",          # K+N+N v K: no forced mate
    "8/8/4k3/3b4/8/3KB3/8/8 w - - 0 1",         # K+B v K+B
    "8/8/4k3/3n4/8/3KB3/8/8 w - - 0 1",         # K+B v K+N
])
def test_no_mating_material_is_zero(fen):
    assert static_eval(Position(fen)) == 0
    assert eval_terms(Position(fen))["scale"] == 0


def test_rook_against_minor_is_scaled_near_draw():
    for fen in ["8/8/4k3/3b4/8/3K4/8/R7 w - - 0 1", "8/8/4k3/3n4/8/3K4/8/R7 w - - 0 1"]:
        terms = eval_terms(Position(fen))
        assert terms["scale"] < 32
        assert abs(static_eval(Position(fen))) < 100


def test_opposite_bishops_scale_down():
    # a pawn up with bishops of opposite colours, then of the same colour
    opposite = "8/5k2/8/3b4/2P5/4B3/2K5/8 w - - 0 1"
    same = "8/5k2/8/4b3/2P5/4B3/2K5/8 w - - 0 1"
    assert eval_terms(Position(opposite))["scale"] < eval_terms(Position(same))["scale"]
    assert 0 < white_view(opposite) < white_view(same)


def test_sanity():
    start = static_eval(Position())
    assert 0 < start < 60                       # the move is worth a little
    queen_up = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert static_eval(Position(queen_up)) > 700
    assert static_eval(Position(queen_up.replace(" w ", " b "))) < -700
    # a protected passed pawn on the seventh beats one on the second
    far = white_view("8/2kP4/2P5/8/8/8/8/6K1 w - - 0 1")
    near = white_view("8/2k5/8/8/8/8/2PP4/6K1 w - - 0 1")
    assert far > near


def tapered(pair, phase, scale):
    """A term's share of the score, tapered as the evaluation tapers the total."""
    mg, eg = pair
    return (mg * phase + eg * scale / 128 * (24 - phase)) / 24


def test_an_exposed_king_is_worse_off_by_king_safety_alone():
    """The same material, pawns and pieces; only the white king stands on e2
    in front of its pieces instead of castled on g1 (the old test compared
    positions that also differed by a pawn). Every term but king safety, the
    king's square table and mobility (e2 is a square the pieces lose) is
    equal, and king safety alone outweighs the other two together."""
    castled = Position("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1")
    exposed = Position("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPPKPPP/R1BQ1R2 w - - 0 1")
    a, b = eval_terms(castled), eval_terms(exposed)
    differing = {t for t, v in a.items() if isinstance(v, tuple) and v != b[t]} - {"total"}
    assert differing <= {"king_safety", "psqt", "mobility"}
    assert a["phase"] == b["phase"] and a["scale"] == b["scale"]
    phase, scale = a["phase"], a["scale"]
    safety = tapered(a["king_safety"], phase, scale) - tapered(b["king_safety"], phase, scale)
    rest = sum(tapered(a[t], phase, scale) - tapered(b[t], phase, scale) for t in differing - {"king_safety"})
    assert safety > 30 and safety > abs(rest)
    assert a["score"] > b["score"]


def test_weights_round_trip_and_bad_input(restore_weights):
    groups = _core.get_eval_weight_groups()
    text = format_weights(groups)
    namespace = {}
    exec(text, namespace)
    assert namespace["DEFAULT_EVAL_WEIGHTS"] == groups
    with pytest.raises(ValueError):
        _core.set_eval_weights({"no_such_group": [(1, 1)]})
    with pytest.raises(ValueError):
        _core.set_eval_weights([(1, 1)] * 3)
    assert _core.get_eval_weight_groups() == groups     # a refused change keeps the old weights
    _core.set_eval_weights(start_weights())
    assert _core.get_eval_weight_groups() == start_weights()
    # material lives in the incremental tables: a new weight shows at once
    doubled = start_weights()
    doubled["material"] = [(2 * mg, 2 * eg) for mg, eg in doubled["material"]]
    _core.set_eval_weights(doubled)
    assert eval_terms(Position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1"))["material"] == (2050, 1872)
