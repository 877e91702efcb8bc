"""Match statistics against known values."""
import math
import statistics

import pytest

from engine.tools.match import stats


def test_logistic_elo_known_values():
    assert stats.expected_score(0) == 0.5
    # 3:1 odds is 400 * log10(3) Elo.
    assert stats.elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert stats.elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert stats.elo_from_score(0.64) == pytest.approx(99.95, abs=0.01)
    # 400 Elo is 10:1 odds.
    assert stats.expected_score(400) == pytest.approx(10 / 11)
    assert stats.expected_score(-400) == pytest.approx(1 / 11)
    assert stats.elo_from_score(0) == -math.inf and stats.elo_from_score(1) == math.inf


def test_elo_round_trip():
    for elo in (-500, -35.5, 0, 12, 400):
        assert stats.elo_from_score(stats.expected_score(elo)) == pytest.approx(elo)


def test_los_known_value():
    # (W - L) / sqrt(2 (W + L)) = 20 / sqrt(200): LOS = Phi(2) = 0.97725.
    assert stats.los(60, 40) == pytest.approx(0.9772499, abs=1e-6)
    assert stats.los(10, 10) == 0.5
    assert stats.los(0, 0) == 0.5


def test_draw_ratio_and_score():
    assert stats.draw_ratio(3, 5, 2) == 0.5
    assert stats.score(3, 5, 2) == pytest.approx(0.55)


def test_trinomial_interval_is_the_normal_approximation():
    wins, draws, losses = 37, 41, 22
    games = [1.0] * wins + [0.5] * draws + [0.0] * losses
    mean = statistics.fmean(games)
    half_width = statistics.NormalDist().inv_cdf(0.975) * math.sqrt(statistics.pvariance(games) / len(games))
    est = stats.trinomial(wins, draws, losses)
    assert est.elo == pytest.approx(-400 * math.log10(1 / mean - 1))
    assert est.lower == pytest.approx(-400 * math.log10(1 / (mean - half_width) - 1))
    assert est.upper == pytest.approx(-400 * math.log10(1 / (mean + half_width) - 1))
    assert est.lower < est.elo < est.upper


# fastchess result blocks published by engine authors (Games/W/L/D, Ptnml(0-2), "Elo: x +/- y"):
# e.g. Zeno (github.com/Toudonou/zeno) "doubled-passed-pawns vs develop".
FASTCHESS_REPORTS = [
    ([352, 579, 1264, 743, 464], 19.83, 6.77),
    ([19, 82, 272, 308, 361], 162.63, 13.49),
    ([13, 34, 232, 71, 29], 31.71, 14.63),
    ([790, 1759, 3256, 1780, 807], 1.14, 4.04),
    ([34, 49, 128, 62, 27], -0.58, 21.41),
]


@pytest.mark.parametrize("pairs, elo, error", FASTCHESS_REPORTS)
def test_pentanomial_matches_fastchess(pairs, elo, error):
    est = stats.pentanomial(pairs)
    assert round(est.elo, 2) == elo
    assert round(est.error, 2) == error


def test_pentanomial_removes_opening_bias():
    # Every pair split 1-1 (each side wins with White): no evidence of a
    # difference in either direction, and no pair-to-pair noise at all.
    pairs = stats.pentanomial([0, 0, 50, 0, 0])
    games = stats.trinomial(50, 0, 50)
    assert pairs.elo == games.elo == 0
    assert pairs.error == 0
    assert games.error > 50


def test_degenerate_results():
    assert stats.trinomial(0, 0, 0).error == math.inf
    sweep = stats.trinomial(10, 0, 0)
    assert sweep.elo == math.inf and sweep.error == math.inf
    with pytest.raises(ValueError):
        stats.pentanomial([1, 2, 3])
