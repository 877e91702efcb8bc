"""SPRT: the log-likelihood ratio against fishtest, and decisions on synthetic results."""
import math
import random

import pytest

from engine.tools.match import sprt as sprt_module
from engine.tools.match.sprt import Sprt, SprtError, llr, llr_normal_approximation, mle_with_expectation, parse_sprt
from engine.tools.match.stats import counts_to_pdf, mean_and_variance

# LLR values computed with fishtest's own LLR_logistic (official-stockfish/fishtest,
# server/fishtest/stats/LLRcalc.py at commit 0753fcc6, scipy brentq root finder),
# run outside this repository. Counts are [LL, LD, DD+WL, WD, WW] or [L, D, W].
FISHTEST = [
    ([10, 20, 40, 20, 10], 0, 5, -0.03450685095168987),
    ([2, 8, 20, 30, 40], 0, 20, 5.075977753709384),
    ([0, 0, 3, 5, 12], -5, 15, 1.134691718982101),
    ([30, 20, 10, 4, 1], 0, 10, -1.7981986490648514),
    ([120, 40, 10, 0, 0], 0, 10, -4.963391403752239),
    ([0, 0, 10, 40, 120], 0, 10, 4.822576907453253),
    ([350, 1800, 5200, 1900, 380], 0, 2, 1.751432113587781),
    ([1200, 3100, 1400], 0, 5, 5.018604608503785),
    ([40, 35, 25], -10, 10, -1.3280266207829836),
]


@pytest.mark.parametrize("counts, elo0, elo1, expected", FISHTEST)
def test_llr_matches_fishtest(counts, elo0, elo1, expected):
    assert llr(counts, elo0, elo1) == pytest.approx(expected, rel=1e-9, abs=1e-9)


def test_normal_approximation_agrees_for_small_differences():
    counts = [350, 1800, 5200, 1900, 380]
    assert llr_normal_approximation(counts, 0, 2) == pytest.approx(llr(counts, 0, 2), rel=1e-3)


def test_mle_distribution_has_the_requested_mean():
    _, pdf = counts_to_pdf([3, 10, 25, 12, 5])
    for s in (0.3, 0.5, 0.58):
        q = mle_with_expectation(pdf, s)
        assert sum(p for _, p in q) == pytest.approx(1)
        assert mean_and_variance(q)[0] == pytest.approx(s)


def test_wald_bounds():
    lower, upper = Sprt(0, 5).bounds()
    assert lower == pytest.approx(-math.log(19)) and upper == pytest.approx(math.log(19))
    assert upper == pytest.approx(2.944, abs=1e-3)
    lower, upper = Sprt(0, 5, alpha=0.05, beta=0.1).bounds()
    assert lower == pytest.approx(math.log(0.1 / 0.95)) and upper == pytest.approx(math.log(0.9 / 0.05))


def _pair_sampler(elo: float, draw_ratio: float, rng: random.Random):
    """Pair scores (0..4 half points) of two independent games at `elo`."""
    score = 1 / (1 + 10 ** (-elo / 400))
    win = score - draw_ratio / 2
    def game():
        x = rng.random()
        return 2 if x < win else 1 if x < win + draw_ratio else 0
    return lambda: game() + game()


def _run_sprt(test: Sprt, elo: float, rng: random.Random, max_pairs=20000):
    counts = [0] * 5
    sample = _pair_sampler(elo, 0.4, rng)
    for pairs in range(1, max_pairs + 1):
        counts[sample()] += 1
        decision = test.decision(test.llr(counts))
        if decision:
            return decision, pairs
    return None, max_pairs


def test_clear_gain_accepts_h1_and_clear_loss_accepts_h0():
    rng = random.Random(1)
    test = Sprt(0, 10)
    assert _run_sprt(test, 40, rng)[0] == "H1"
    assert _run_sprt(test, -30, rng)[0] == "H0"


def test_no_decision_on_a_handful_of_results():
    test = Sprt(0, 5)
    assert test.decision(test.llr([0, 1, 2, 1, 0])) is None
    assert test.decision(test.llr([0, 0, 0, 0, 3])) is None


def test_error_rates_stay_near_alpha_and_beta():
    # Wide bounds keep each test short; 200 runs at each hypothesis.
    rng = random.Random(7)
    test = Sprt(0, 40, alpha=0.05, beta=0.05)
    false_h1 = sum(_run_sprt(test, 0, rng)[0] == "H1" for _ in range(200))
    false_h0 = sum(_run_sprt(test, 40, rng)[0] == "H0" for _ in range(200))
    # Expected about 10 each (5%); 25 would be far outside binomial noise.
    assert false_h1 < 25 and false_h0 < 25


def test_parse_sprt():
    t = parse_sprt(["elo0=0", "elo1=5", "alpha=0.05", "beta=0.1"])
    assert (t.elo0, t.elo1, t.alpha, t.beta) == (0, 5, 0.05, 0.1)
    for bad in (["elo0=5", "elo1=0"], ["elo0=0"], ["elo0=0", "elo1=x"], ["elo0=0", "elo1=5", "alpha=0.7"],
                ["gamma=1"], ["elo0"]):
        with pytest.raises(SprtError):
            parse_sprt(bad)


def test_llr_needs_three_or_five_counts():
    with pytest.raises(ValueError):
        sprt_module.llr([1, 2], 0, 5)
