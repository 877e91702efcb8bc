"""The running score of a match, seen from the first engine, and its report."""
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import stats
from .sprt import Sprt

POINTS = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def _signed(x: float, digits: int = 1) -> str:
    return f"{x:+.{digits}f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _error(x: float) -> str:
    # A 0% or 100% score has no finite interval.
    return f"{x:.2f}" if math.isfinite(x) else "inf"


@dataclass
class Tally:
    first: str                      # the engine the score is counted for
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    pentanomial: List[int] = field(default_factory=lambda: [0] * 5)
    open_pairs: Dict[int, float] = field(default_factory=dict)   # pair -> first game's points
    endings: Counter = field(default_factory=Counter)            # (termination, loser or "") -> games

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def add(self, pair: int, first_is_white: bool, result: str, termination: str) -> bool:
        """Count one game; returns True when it completed its opening pair."""
        white_points = POINTS[result]
        points = white_points if first_is_white else 1.0 - white_points
        if points == 1.0:
            self.wins += 1
        elif points == 0.0:
            self.losses += 1
        else:
            self.draws += 1
        loser = ""
        if termination not in ("normal", "adjudication") and points != 0.5:
            loser = self.second if points == 1.0 else self.first
        self.endings[(termination, loser)] += 1
        if pair in self.open_pairs:
            self.pentanomial[int(round(2 * (self.open_pairs.pop(pair) + points)))] += 1
            return True
        self.open_pairs[pair] = points
        return False

    def merge(self, earlier: "Tally") -> None:
        """Count the games of `earlier` (the same two engines, scored for the
        same first one) as if they had been played before these."""
        if (earlier.first, earlier.second) != (self.first, self.second):
            raise ValueError(f"games of {earlier.first} vs {earlier.second}, not {self.first} vs {self.second}")
        self.wins, self.draws, self.losses = (self.wins + earlier.wins, self.draws + earlier.draws,
                                              self.losses + earlier.losses)
        self.pentanomial = [a + b for a, b in zip(self.pentanomial, earlier.pentanomial)]
        self.endings.update(earlier.endings)

    def trinomial_estimate(self) -> stats.EloEstimate:
        return stats.trinomial(self.wins, self.draws, self.losses)

    def short(self) -> str:
        """One line for the progress bar."""
        text = f"+{self.wins} ={self.draws} -{self.losses}"
        if self.games:
            est = self.trinomial_estimate()
            text += f" {stats.score(self.wins, self.draws, self.losses):.1%}"
            if math.isfinite(est.elo):
                text += f" Elo {_signed(est.elo)}"
                if math.isfinite(est.error):
                    text += f"±{est.error:.0f}"
        return text

    def report(self, sprt: Optional[Sprt] = None) -> str:
        w, d, l = self.wins, self.draws, self.losses
        lines = [f"Results of {self.first} vs {self.second}"]
        if not self.games:
            return lines[0] + ": no finished games"
        points = w + d / 2
        lines.append(f"Games: {self.games}, Wins: {w}, Draws: {d}, Losses: {l}, "
                     f"Points: {points:g} ({stats.score(w, d, l):.2%})")
        est = self.trinomial_estimate()
        lines.append(f"Elo: {_signed(est.elo, 2)} +/- {_error(est.error)} (95%: {_signed(est.lower)} .. "
                     f"{_signed(est.upper)}), LOS: {stats.los(w, l):.2%}, "
                     f"Draw ratio: {stats.draw_ratio(w, d, l):.2%}")
        pairs = sum(self.pentanomial)
        if pairs:
            pen = stats.pentanomial(self.pentanomial)
            lines.append(f"Pentanomial [0, 0.5, 1, 1.5, 2]: {self.pentanomial} ({pairs} pairs), "
                         f"Elo: {_signed(pen.elo, 2)} +/- {_error(pen.error)}")
        if sprt:
            lower, upper = sprt.bounds()
            value = sprt.llr(self.pentanomial)
            verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "no decision yet"}[sprt.decision(value)]
            lines.append(f"SPRT (elo0={sprt.elo0:g}, elo1={sprt.elo1:g}, alpha={sprt.alpha:g}, "
                         f"beta={sprt.beta:g}): LLR {value:.2f} ({lower:.2f}, {upper:.2f}) {verdict}")
        endings = ", ".join(f"{term}{f' ({loser} lost)' if loser else ''}: {n}"
                            for (term, loser), n in sorted(self.endings.items()))
        lines.append(f"Terminations: {endings}")
        return "\n".join(lines)
