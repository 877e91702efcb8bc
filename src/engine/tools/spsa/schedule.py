"""SPSA's gain sequences, in fishtest's and OpenBench's parametrisation.

Spall's sequences are c_k = c / k**gamma and a_k = a / (A + k)**alpha. A
user thinks in what they are at the end of the run, so each parameter gives
c_end (how far it is nudged in the last iterations: a change worth a few
Elo) and r_end (the learning rate there, a_end / c_end**2); c and a are then
fixed by the run's length N:

    c = c_end * N**gamma,   a = r_end * c_end**2 * (A + N)**alpha

The update for one iteration, with delta in {-1, +1} per parameter and the
pair's result R = wins - losses of theta + c_k*delta, is

    theta += a_k / c_k * R * delta

(fishtest's R_k * c_k * result * flip with R_k = a_k / c_k**2).
"""
from dataclasses import dataclass

# Spall's recommended exponents (the asymptotically optimal 1 and 1/6 are
# slower in practice), as fishtest and OpenBench use them.
ALPHA = 0.602
GAMMA = 0.101
A_RATIO = 0.1     # A = 10% of the iterations, fishtest's default


@dataclass(frozen=True)
class Schedule:
    iterations: int
    alpha: float = ALPHA
    gamma: float = GAMMA
    a_ratio: float = A_RATIO

    @property
    def big_a(self) -> float:
        return self.a_ratio * self.iterations

    def c_k(self, c_end: float, k: int) -> float:
        """The perturbation in iteration k (0-based); c_end at the last one."""
        return c_end * (self.iterations / (k + 1)) ** self.gamma

    def step(self, c_end: float, r_end: float, k: int) -> float:
        """a_k / c_k: how far theta moves per point of result per unit of delta."""
        a = r_end * c_end ** 2 * (self.big_a + self.iterations) ** self.alpha
        a_k = a / (self.big_a + k + 1) ** self.alpha
        return a_k / self.c_k(c_end, k)
