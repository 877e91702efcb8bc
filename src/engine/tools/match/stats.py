"""Match statistics in the logistic Elo model.

    expected score  s = 1 / (1 + 10^(-elo/400))
    Elo difference  elo = -400 * log10(1/s - 1)

The 95% interval is the normal approximation of the mean score (mean +-
1.96 standard errors, the per-game or per-pair variance estimated from the
results), mapped to Elo at both ends; the "+-" shown is half its width.
This is what cutechess-cli and fastchess report (formulas, not code).
With pentanomial statistics the unit is a game pair (both colours of one
opening), which removes the opening's bias from the variance.

LOS (likelihood of superiority) uses the usual normal approximation from
the Chess Programming Wiki ("Match Statistics"):
    LOS = 0.5 * (1 + erf((W - L) / sqrt(2 (W + L)))).
"""
import math
from dataclasses import dataclass
from typing import Sequence, Tuple

Z95 = 1.959963984540054   # two-sided 95% quantile of the normal distribution


def expected_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class EloEstimate:
    elo: float
    lower: float
    upper: float

    @property
    def error(self) -> float:
        """Half the width of the 95% interval (the "+-" of the tables)."""
        if not (math.isfinite(self.lower) and math.isfinite(self.upper)):
            return math.inf
        return (self.upper - self.lower) / 2.0


def mean_and_variance(pdf: Sequence[Tuple[float, float]]) -> Tuple[float, float]:
    """Mean and variance of a discrete distribution [(value, probability)]."""
    mean = sum(p * a for a, p in pdf)
    return mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def counts_to_pdf(counts: Sequence[float]) -> Tuple[float, list]:
    """Counts of equally spaced scores 0..1 (3: L/D/W, 5: pair sums) -> (N, pdf)."""
    total = sum(counts)
    step = 1.0 / (len(counts) - 1)
    return total, [(i * step, c / total) for i, c in enumerate(counts)]


def elo_estimate(counts: Sequence[float]) -> EloEstimate:
    """Elo and its 95% interval from L/D/W counts or pentanomial pair counts."""
    if sum(counts) == 0:
        return EloEstimate(0.0, -math.inf, math.inf)
    total, pdf = counts_to_pdf(counts)
    mean, variance = mean_and_variance(pdf)
    margin = Z95 * math.sqrt(variance / total)
    return EloEstimate(elo_from_score(mean), elo_from_score(mean - margin), elo_from_score(mean + margin))


def trinomial(wins: int, draws: int, losses: int) -> EloEstimate:
    return elo_estimate([losses, draws, wins])


def pentanomial(pairs: Sequence[int]) -> EloEstimate:
    """`pairs[k]` = number of game pairs in which the engine scored k/2 points."""
    if len(pairs) != 5:
        raise ValueError("pentanomial counts need 5 entries (0, 0.5, 1, 1.5, 2 points)")
    return elo_estimate(pairs)


def los(wins: int, losses: int) -> float:
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def draw_ratio(wins: int, draws: int, losses: int) -> float:
    games = wins + draws + losses
    return draws / games if games else 0.0


def score(wins: int, draws: int, losses: int) -> float:
    games = wins + draws + losses
    return (wins + draws / 2.0) / games if games else 0.0
