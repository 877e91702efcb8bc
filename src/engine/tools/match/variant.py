"""Chess960 matches (`--variant fischerandom`, cutechess-cli's name for it).

python-chess does the protocol side: for a chess960 board it sets
UCI_Chess960 (UCI) or sends `variant fischerandom` (xboard) and writes
castling in each engine's own notation (king takes rook for UCI_Chess960).
What is left here: the variant's name, and start positions when no opening
file is given, drawn from the 960 with the match's seed so that every shard
and every rerun draws the same ones.
"""
import random
from typing import Iterator

import chess

from .openings import Opening

VARIANTS = {"standard": False, "normal": False, "fischerandom": True, "chess960": True, "frc": True}


class VariantError(ValueError):
    """A variant the runner does not play."""


def parse_variant(name: str) -> bool:
    """True for Chess960, False for standard chess."""
    try:
        return VARIANTS[name.lower()]
    except KeyError:
        raise VariantError(f"--variant must be one of {', '.join(VARIANTS)}, not {name!r}") from None


def generated_starts(seed: int) -> Iterator[Opening]:
    """Endless Chess960 start positions, each with its Scharnagl number as the label."""
    rng = random.Random(seed)
    while True:
        number = rng.randrange(960)
        board = chess.Board.from_chess960_pos(number)
        yield Opening(board.fen(), (), f"Chess960 #{number}", chess960=True)
