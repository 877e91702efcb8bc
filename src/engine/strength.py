"""UCI_LimitStrength: playing at a chosen Elo.

Two levers, both outside the core:
  * a node budget that doubles every ELO_PER_DOUBLING Elo, so the search
    sees less the weaker it should play;
  * a MultiPV search and a softmax choice among its lines,
        P(line i) ~ exp((score_i - best) / T),
    with a temperature T (centipawns) that grows as the Elo falls: a strong
    setting almost always plays the best line, a weak one often plays the
    second or third, and sometimes a clear mistake, as weak players do.
The idea of MultiPV plus a weighted random pick is Stockfish's "Skill Level"
(which adds a random weakness to each line's score); the softmax and the node
budget are ours.

Calibration: see CALIBRATION below (how the anchor numbers were measured).
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Dict, Optional, Tuple

ELO_MIN = 1000
ELO_MAX = 2400
ELO_DEFAULT = 1500

# Anchors of the model (see CALIBRATION).
NODES_AT_MIN = 200            # node budget at ELO_MIN
ELO_PER_DOUBLING = 160        # Elo gained per doubling of the node budget
TEMPERATURE_AT_MIN = 120.0    # softmax temperature (cp) at ELO_MIN ...
TEMPERATURE_AT_MAX = 8.0      # ... and at ELO_MAX, interpolated geometrically

CALIBRATION = """not yet measured"""

MATE_CP = 20000  # a mate score as centipawns for the softmax (mate in n: MATE_CP - 10 n)


@dataclass(frozen=True)
class StrengthPlan:
    elo: int
    nodes: int          # node budget for the whole search
    multipv: int        # lines to choose among
    temperature: float  # softmax temperature, centipawns


def plan_for(elo: int) -> StrengthPlan:
    elo = max(ELO_MIN, min(ELO_MAX, int(elo)))
    fraction = (elo - ELO_MIN) / (ELO_MAX - ELO_MIN)
    nodes = int(NODES_AT_MIN * 2 ** ((elo - ELO_MIN) / ELO_PER_DOUBLING))
    temperature = TEMPERATURE_AT_MIN * (TEMPERATURE_AT_MAX / TEMPERATURE_AT_MIN) ** fraction
    # Weak play needs more alternatives to err with; strong play only needs one or two.
    multipv = 4 if fraction < 0.5 else 3 if fraction < 0.8 else 2
    return StrengthPlan(elo, nodes, multipv, temperature)


def score_as_cp(score) -> int:
    kind, value = score
    if kind == "mate":
        return MATE_CP - 10 * value if value > 0 else -MATE_CP - 10 * value
    return int(value)


def choose_line(lines: Dict[int, dict], plan: StrengthPlan,
                rng: Optional[random.Random] = None) -> Optional[Tuple[str, Optional[str]]]:
    """(move, ponder) picked among the search's final lines {multipv: info}.

    Returns None when no line has a move (the caller then keeps the search's
    own best move).
    """
    candidates = [info for _, info in sorted(lines.items())
                  if info.get("pv") and info.get("score") is not None]
    if not candidates:
        return None
    scores = [score_as_cp(info["score"]) for info in candidates]
    best = max(scores)
    if best >= MATE_CP - 1000:
        # A forced mate is never thrown away: weak players find mates too,
        # and a "weakened" engine that drops them looks broken, not weak.
        chosen = candidates[scores.index(best)]
    else:
        weights = [math.exp(max(-50.0, (s - best) / plan.temperature)) for s in scores]
        chosen = (rng or random).choices(candidates, weights=weights)[0]
    pv = chosen["pv"]
    return pv[0], (pv[1] if len(pv) > 1 else None)
