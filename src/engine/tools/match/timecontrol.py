"""Time controls and the clock the runner keeps for each player.

The runner measures every move itself (wall clock around the engine's
search), so an engine that ignores its clock is caught; it never trusts the
engine's own idea of how much time it has used.

Time control syntax, as in cutechess-cli: ``[MOVES/]BASE[+INCREMENT]``
with BASE in seconds or ``minutes:seconds``, e.g. ``10+0.1``, ``40/60``,
``1:30+1``; ``inf`` means no clock.
"""
from dataclasses import dataclass
from typing import Optional


class TimeControlError(ValueError):
    """A time control string that cannot be understood."""


def _seconds(text: str, what: str) -> float:
    try:
        if ":" in text:
            minutes, seconds = text.split(":", 1)
            value = int(minutes) * 60 + float(seconds)
        else:
            value = float(text)
    except ValueError:
        raise TimeControlError(f"bad {what} {text!r}: expected seconds or m:ss") from None
    if value < 0 or value != value or value == float("inf"):
        raise TimeControlError(f"bad {what} {text!r}: must be a finite number >= 0")
    return value


@dataclass(frozen=True)
class TimeControl:
    base: float              # seconds on the clock at the start (and at each new period)
    increment: float = 0.0   # seconds added after each move
    moves: int = 0           # moves per period; 0 means the whole game

    @classmethod
    def parse(cls, text: str) -> Optional["TimeControl"]:
        """Parse ``[MOVES/]BASE[+INC]``; returns None for ``inf``."""
        text = text.strip()
        if text.lower() in ("inf", "infinite"):
            return None
        moves = 0
        if "/" in text:
            moves_text, text = text.split("/", 1)
            if not moves_text.isdigit() or int(moves_text) <= 0:
                raise TimeControlError(f"bad moves per period {moves_text!r} in time control")
            moves = int(moves_text)
        base_text, plus, inc_text = text.partition("+")
        base = _seconds(base_text, "base time")
        increment = _seconds(inc_text, "increment") if plus else 0.0
        if base <= 0 and increment <= 0:
            raise TimeControlError("a time control needs a base time or an increment above zero")
        return cls(base=base, increment=increment, moves=moves)

    def pgn(self) -> str:
        """The PGN TimeControl tag value (seconds), e.g. ``10+0.1`` or ``40/60``."""
        def num(x: float) -> str:
            return f"{x:g}"
        text = num(self.base)
        if self.increment:
            text += "+" + num(self.increment)
        return f"{self.moves}/{text}" if self.moves else text


class Clock:
    """One player's clock during one game."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.remaining = control.base
        self.moves_made = 0

    def moves_to_go(self) -> Optional[int]:
        if not self.control.moves:
            return None
        return self.control.moves - self.moves_made % self.control.moves

    def punch(self, elapsed: float, margin: float) -> bool:
        """Charge one move that took `elapsed` seconds.

        Returns False when the flag fell, i.e. the move took longer than the
        time left plus the grace `margin` (which absorbs the pipe and
        scheduling delays that are not the engine's fault).
        """
        self.remaining -= elapsed
        if self.remaining < -margin:
            return False
        # A move that ate into the margin is not punished twice.
        self.remaining = max(self.remaining, 0.0) + self.control.increment
        self.moves_made += 1
        if self.control.moves and self.moves_made % self.control.moves == 0:
            self.remaining += self.control.base
        return True
