"""The parameters a run tunes: where they start, their bounds, their gains.

Two ways to name them:
    --param NAME [start=X] [min=N] [max=N] [c=X] [r=X]   (repeatable)
        Anything left out comes from the engine's own spin option: its
        default is the start, its min and max the bounds; c (c_end) is a
        twentieth of the range, at least 1, and r (r_end) is 0.002, the
        values OpenBench suggests.
    --params-file FILE
        OpenBench's SPSA input, one parameter a line:
            NAME, int, START, MIN, MAX, C_END, R_END
        (`vireo spsa` prints its result in the same format, so a run can
        start where the last one ended).
"""
import math
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence

DEFAULT_R_END = 0.002
C_END_FRACTION = 1 / 20


class ParamError(ValueError):
    """A parameter that cannot be tuned as given; the message is for the user."""


@dataclass
class Param:
    name: str
    value: float          # theta: a real number; the engine gets it rounded
    min: int
    max: int
    c_end: float
    r_end: float = DEFAULT_R_END

    def clip(self, x: float) -> float:
        return min(max(x, self.min), self.max)

    def engine_value(self, x: float) -> int:
        """What the engine is set to for theta x: rounded half away from zero, inside the bounds."""
        return int(self.clip(math.floor(x + 0.5) if x >= 0 else -math.floor(-x + 0.5)))

    def openbench_line(self) -> str:
        return f"{self.name}, int, {self.value:.2f}, {self.min}, {self.max}, {self.c_end:g}, {self.r_end:g}"


@dataclass
class ParamRequest:
    """A --param as typed: only the name is sure; the rest may come from the engine."""
    name: str
    start: Optional[float] = None
    min: Optional[int] = None
    max: Optional[int] = None
    c_end: Optional[float] = None
    r_end: Optional[float] = None


def _number(name: str, key: str, text: str, kind=float):
    try:
        value = kind(text)
    except ValueError:
        raise ParamError(f"{name}: {key}= needs a{'n integer' if kind is int else ' number'}, not {text!r}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise ParamError(f"{name}: {key}= must be finite, not {text!r}")
    return value


def parse_param_words(words: Sequence[str]) -> ParamRequest:
    """NAME [start=X] [min=N] [max=N] [c=X] [r=X]"""
    if not words or "=" in words[0]:
        raise ParamError("--param starts with the option's name, e.g. --param RFP_MARGIN c=5")
    request = ParamRequest(words[0])
    for word in words[1:]:
        key, sep, text = word.partition("=")
        if not sep:
            raise ParamError(f"{request.name}: expected KEY=VALUE, got {word!r}")
        if key == "start":
            request.start = _number(request.name, key, text)
        elif key in ("min", "max"):
            setattr(request, key, _number(request.name, key, text, int))
        elif key == "c":
            request.c_end = _number(request.name, key, text)
        elif key == "r":
            request.r_end = _number(request.name, key, text)
        else:
            raise ParamError(f"{request.name}: unknown key {key!r} (known: start, min, max, c, r)")
    return request


def parse_openbench(text: str, source: str = "params file") -> List[ParamRequest]:
    """OpenBench lines `NAME, int, START, MIN, MAX, C_END, R_END`; # starts a comment."""
    requests = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] not in ("int", "float"):
            raise ParamError(f"{source}:{number}: expected 'NAME, int, START, MIN, MAX, C_END, R_END', got {line!r}")
        name = fields[0]
        try:
            requests.append(ParamRequest(name, float(fields[2]), int(float(fields[3])), int(float(fields[4])),
                                         float(fields[5]), float(fields[6])))
        except ValueError:
            raise ParamError(f"{source}:{number}: {name}: a field is not a number in {line!r}") from None
    if not requests:
        raise ParamError(f"{source}: no parameters")
    return requests


def resolve(requests: Sequence[ParamRequest], spins: Dict[str, tuple]) -> List[Param]:
    """Fill each request from the engine's spin options {name: (default, min, max)},
    checking that the engine has the option and that the bounds hold."""
    params, seen = [], set()
    by_lower = {name.lower(): name for name in spins}
    for req in requests:
        real = by_lower.get(req.name.lower())
        if real is None:
            raise ParamError(f"the engine has no spin option {req.name!r} (Vireo declares its search "
                             "constants when started with arg=uci arg=--tune)")
        if real in seen:
            raise ParamError(f"{real} is given twice")
        seen.add(real)
        default, low, high = spins[real]
        lo = req.min if req.min is not None else low
        hi = req.max if req.max is not None else high
        if not low <= lo < hi <= high:
            raise ParamError(f"{real}: bounds {lo}..{hi} must lie inside the engine's {low}..{high}, min < max")
        start = req.start if req.start is not None else default
        if not lo <= start <= hi:
            raise ParamError(f"{real}: start {start:g} is outside {lo}..{hi}")
        c_end = req.c_end if req.c_end is not None else max(1.0, (hi - lo) * C_END_FRACTION)
        r_end = req.r_end if req.r_end is not None else DEFAULT_R_END
        if c_end <= 0 or r_end <= 0:
            raise ParamError(f"{real}: c and r must be above 0")
        params.append(Param(real, float(start), lo, hi, c_end, r_end))
    return params
