"""Engine specifications written as ``KEY=VALUE`` words, as in cutechess-cli.

    cmd=COMMAND        program to run; split like a shell line, so
                       cmd="python -m engine" works (quote it for the shell)
    name=NAME          name in the PGN and the tables (default: the engine's own)
    proto=uci|xboard   protocol (default uci)
    dir=PATH           working directory of the engine
    arg=ARG            one extra command-line argument (repeatable)
    option.NAME=VALUE  engine option (UCI setoption / xboard option)
    tc=[MOVES/]BASE[+INC]   clock, e.g. 10+0.1, 40/60, 1:00+1, inf
    st=SECONDS         fixed time a move
    depth=N            fixed search depth
    nodes=N            fixed node count
    timemargin=MS      grace before a time forfeit (default 100 ms)
    ponder             think on the opponent's time (a bare word, as in cutechess-cli;
                       ponder=true|false also works)
    stall=SECONDS      an engine without a clock (depth=, nodes=) that gives no
                       move within this long loses by stall (default 60 s)
"""
import shlex
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

from .timecontrol import TimeControl, TimeControlError

DEFAULT_TIME_MARGIN_MS = 100
# Without a clock nothing else ends a hung search; a minute is far above any
# depth or node limit a match is played at, and short enough to notice.
DEFAULT_STALL_S = 60.0
KEYS = ("cmd", "name", "proto", "dir", "arg", "tc", "st", "depth", "nodes", "timemargin", "ponder", "stall")


class SpecError(ValueError):
    """An engine specification that cannot be used."""


@dataclass
class EngineSpec:
    program: List[str] = field(default_factory=list)   # from cmd=
    args: List[str] = field(default_factory=list)      # from arg=
    name: Optional[str] = None
    protocol: str = "uci"
    workdir: Optional[str] = None
    options: Dict[str, str] = field(default_factory=dict)
    time_control: Optional[TimeControl] = None
    movetime: Optional[float] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    time_margin: float = DEFAULT_TIME_MARGIN_MS / 1000
    ponder: bool = False
    stall_timeout: float = DEFAULT_STALL_S

    @property
    def command(self) -> List[str]:
        return self.program + self.args

    def has_limit(self) -> bool:
        return any(x is not None for x in (self.time_control, self.movetime, self.depth, self.nodes))

    def label(self) -> str:
        return self.name or (self.program[0].rsplit("/", 1)[-1] if self.program else "?")

    def limit_text(self) -> str:
        """Human-readable limits, also used for the PGN TimeControl tag."""
        parts = []
        if self.time_control:
            parts.append(self.time_control.pgn())
        if self.movetime is not None:
            parts.append(f"{self.movetime:g}/move")
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        if self.nodes is not None:
            parts.append(f"{self.nodes} nodes")
        return ", ".join(parts) or "-"


def _positive_int(key: str, value: str) -> int:
    if not value.isdigit() or int(value) <= 0:
        raise SpecError(f"{key}= needs a whole number above 0, not {value!r}")
    return int(value)


def _positive_float(key: str, value: str, allow_zero=False) -> float:
    try:
        number = float(value)
    except ValueError:
        number = float("nan")
    if not (number >= 0 if allow_zero else number > 0) or number == float("inf"):
        raise SpecError(f"{key}= needs a number {'>= 0' if allow_zero else 'above 0'}, not {value!r}")
    return number


def apply_words(spec: EngineSpec, words: Sequence[str]) -> EngineSpec:
    """Apply KEY=VALUE words to `spec` (later words win); returns it."""
    for word in words:
        if word == "ponder":   # cutechess-cli's flag word
            word = "ponder=true"
        key, sep, value = word.partition("=")
        if not sep:
            raise SpecError(f"expected KEY=VALUE, got {word!r}")
        if key.startswith("option."):
            if not key[7:]:
                raise SpecError(f"option without a name in {word!r}")
            spec.options[key[7:]] = value
        elif key == "cmd":
            try:
                spec.program = shlex.split(value)
            except ValueError as exc:
                raise SpecError(f"cannot split cmd={value!r}: {exc}") from None
            if not spec.program:
                raise SpecError("cmd= is empty")
        elif key == "arg":
            spec.args.append(value)
        elif key == "name":
            spec.name = value or None
        elif key == "proto":
            if value not in ("uci", "xboard"):
                raise SpecError(f"proto= must be uci or xboard, not {value!r}")
            spec.protocol = value
        elif key == "dir":
            spec.workdir = value or None
        elif key == "tc":
            try:
                spec.time_control = TimeControl.parse(value)
            except TimeControlError as exc:
                raise SpecError(f"tc={value}: {exc}") from None
        elif key == "st":
            spec.movetime = _positive_float(key, value)
        elif key == "depth":
            spec.depth = _positive_int(key, value)
        elif key == "nodes":
            spec.nodes = _positive_int(key, value)
        elif key == "ponder":
            if value.lower() not in ("true", "false"):
                raise SpecError(f"ponder= must be true or false, not {value!r}")
            spec.ponder = value.lower() == "true"
        elif key == "timemargin":
            spec.time_margin = _positive_float(key, value, allow_zero=True) / 1000
        elif key == "stall":
            spec.stall_timeout = _positive_float(key, value)
        else:
            raise SpecError(f"unknown engine key {key!r} (known: {', '.join(KEYS)}, option.NAME)")
    return spec


def build_spec(words: Sequence[str], each: Sequence[str] = ()) -> EngineSpec:
    """One engine: the shared `each` words first, then its own (which win)."""
    spec = apply_words(EngineSpec(), list(each) + list(words))
    if not spec.program:
        raise SpecError("every engine needs cmd=COMMAND")
    if spec.time_control and spec.movetime is not None:
        raise SpecError("give either tc= or st=, not both")
    return spec
