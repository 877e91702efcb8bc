"""Sequential probability ratio test (generalised SPRT), as fishtest runs it.

Hypotheses are logistic Elo differences: H0 elo = elo0, H1 elo = elo1,
i.e. expected scores s0, s1. The log-likelihood ratio is the generalised
one of Michel Van den Bergh (fishtest, server/fishtest/stats/LLRcalc.py,
`LLR_logistic`; theory in "support_MLE_multinomial.pdf", Proposition 1.1):

    For the empirical distribution p over scores a_i (pentanomial pairs:
    0, 1/4, 1/2, 3/4, 1; or trinomial games: 0, 1/2, 1), the most likely
    distribution with expectation s is  q_i = p_i / (1 + x (a_i - s)),
    x solving  sum_i p_i (a_i - s) / (1 + x (a_i - s)) = 0.
    LLR = N * sum_i p_i * ln(q1_i / q0_i)     (N = pairs or games).

Empty outcome classes get a count of 0.001 first (fishtest's
"regularize"), so the test is defined from the first result on.
Wald's bounds: stop for H0 when LLR <= ln(beta / (1 - alpha)), for H1 when
LLR >= ln((1 - beta) / alpha).

The closed-form approximation LLR ~ N (s1 - s0)(2 mean - s0 - s1) / (2 var)
(Van den Bergh, "GSPRT_approximation.pdf") is kept for the tests: both must agree
for small Elo differences.

Our code is written from these formulas; none is copied.
"""
import math
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

from .stats import counts_to_pdf, expected_score, mean_and_variance

REGULARIZATION = 1e-3
BISECTION_STEPS = 200


class SprtError(ValueError):
    """Bad SPRT parameters."""


def _regularize(counts: Sequence[float]) -> list:
    return [c if c > 0 else REGULARIZATION for c in counts]


def _secular_root(pdf) -> float:
    """x with sum p_i a_i / (1 + x a_i) = 0, for a_i of both signs.

    The left side falls strictly in x between its poles -1/max(a) and
    -1/min(a), so bisection always converges.
    """
    low_a, high_a = min(a for a, _ in pdf), max(a for a, _ in pdf)
    lo, hi = -1.0 / high_a, -1.0 / low_a
    for _ in range(BISECTION_STEPS):
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            break
        value = sum(p * a / (1.0 + mid * a) for a, p in pdf)
        if value > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def mle_with_expectation(pdf, s: float):
    """The distribution on the same support, most likely given `pdf`, whose mean is `s`."""
    x = _secular_root([(a - s, p) for a, p in pdf])
    return [(a, p / (1.0 + x * (a - s))) for a, p in pdf]


def llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """Generalised LLR of H1 against H0 for L/D/W or pentanomial counts."""
    if len(counts) not in (3, 5):
        raise ValueError("counts must be L/D/W (3) or pentanomial (5)")
    total, pdf = counts_to_pdf(_regularize(counts))
    s0, s1 = expected_score(elo0), expected_score(elo1)
    q0, q1 = mle_with_expectation(pdf, s0), mle_with_expectation(pdf, s1)
    return total * sum(p * math.log(b / a) for (_, p), (_, a), (_, b) in zip(pdf, q0, q1))


def llr_normal_approximation(counts: Sequence[float], elo0: float, elo1: float) -> float:
    total, pdf = counts_to_pdf(_regularize(counts))
    mean, variance = mean_and_variance(pdf)
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return total * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


@dataclass(frozen=True)
class Sprt:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def bounds(self) -> Tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, counts: Sequence[float]) -> float:
        return llr(counts, self.elo0, self.elo1)

    def decision(self, value: float) -> Optional[str]:
        """'H0' or 'H1' once a bound is crossed, else None (play on)."""
        lower, upper = self.bounds()
        if value >= upper:
            return "H1"
        if value <= lower:
            return "H0"
        return None


def parse_sprt(words: Sequence[str]) -> Sprt:
    values = {"alpha": 0.05, "beta": 0.05}
    for word in words:
        key, sep, text = word.partition("=")
        if not sep or key not in ("elo0", "elo1", "alpha", "beta"):
            raise SprtError(f"--sprt: expected elo0= elo1= [alpha=] [beta=], got {word!r}")
        try:
            values[key] = float(text)
        except ValueError:
            raise SprtError(f"--sprt: {key}= needs a number, not {text!r}") from None
    if "elo0" not in values or "elo1" not in values:
        raise SprtError("--sprt needs elo0= and elo1=")
    if not values["elo0"] < values["elo1"]:
        raise SprtError("--sprt: elo0 must be below elo1")
    for key in ("alpha", "beta"):
        if not 0 < values[key] < 0.5:
            raise SprtError(f"--sprt: {key} must lie between 0 and 0.5")
    if any(abs(values[k]) >= 1000 for k in ("elo0", "elo1")):
        raise SprtError("--sprt: elo0 and elo1 must lie within +-1000")
    return Sprt(values["elo0"], values["elo1"], values["alpha"], values["beta"])
