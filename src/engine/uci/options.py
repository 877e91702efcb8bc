"""The UCI option table: declarations, case-insensitive look-up, typed values.

The table only knows names, types, ranges and current values; what a change
does (resize the hash, open a book, ...) is decided by the engine in uci.py.
A rejected value never changes the option: the caller reports the message.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, List, Optional, Tuple, Union

Value = Union[bool, int, str, None]

# The UCI way of writing an empty string default.
EMPTY = "<empty>"

_TRUE = {"true", "on", "yes", "1"}
_FALSE = {"false", "off", "no", "0"}


class OptionError(ValueError):
    """A setoption that cannot be applied; the message is meant for the user."""


@dataclass
class Option:
    name: str                      # with the casing users type: "Hash", "UCI_Elo"
    kind: str                      # spin | check | combo | string | button
    default: Value = None
    min: Optional[int] = None
    max: Optional[int] = None
    choices: Tuple[str, ...] = ()
    value: Value = field(default=None)

    def __post_init__(self):
        self.value = self.default

    def declaration(self) -> str:
        """The `option name ... type ...` line sent in answer to `uci`."""
        parts = [f"option name {self.name} type {self.kind}"]
        if self.kind == "check":
            parts.append(f"default {'true' if self.default else 'false'}")
        elif self.kind == "spin":
            parts.append(f"default {self.default} min {self.min} max {self.max}")
        elif self.kind == "combo":
            parts.append(f"default {self.default}")
            parts.extend(f"var {choice}" for choice in self.choices)
        elif self.kind == "string":
            parts.append(f"default {self.default or EMPTY}")
        return " ".join(parts)

    def parse(self, raw: Optional[str]) -> Value:
        """The typed value of `raw`, or OptionError naming the problem."""
        text = (raw or "").strip()
        if self.kind == "button":
            return None
        if self.kind == "string":
            return "" if text == EMPTY else text
        if not text:
            raise OptionError(f"option {self.name} needs a value")
        if self.kind == "check":
            lowered = text.lower()
            if lowered in _TRUE:
                return True
            if lowered in _FALSE:
                return False
            raise OptionError(f"option {self.name} takes true or false, not {text!r}")
        if self.kind == "spin":
            try:
                number = int(text)
            except ValueError:
                raise OptionError(f"option {self.name} takes an integer, not {text!r}") from None
            if not self.min <= number <= self.max:
                raise OptionError(f"option {self.name} value {number} is out of range "
                                  f"{self.min}..{self.max}; kept {self.value}")
            return number
        if self.kind == "combo":
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise OptionError(f"option {self.name} takes one of {', '.join(self.choices)}, not {text!r}")
        raise OptionError(f"option {self.name} has an unknown type {self.kind}")


def _key(name: str) -> str:
    # GUIs differ in case and sometimes in inner spacing ("Move  Overhead").
    return " ".join(name.split()).lower()


class OptionTable:
    def __init__(self, options: Iterable[Option]):
        self._options = {_key(o.name): o for o in options}

    def __iter__(self):
        return iter(self._options.values())

    def find(self, name: str) -> Optional[Option]:
        return self._options.get(_key(name))

    def __getitem__(self, name: str) -> Value:
        option = self.find(name)
        if option is None:
            raise KeyError(name)
        return option.value

    def set(self, name: str, raw: Optional[str]) -> Tuple[Option, Value, Value]:
        """Parse and store a value; returns (option, old value, new value)."""
        option = self.find(name)
        if option is None:
            raise OptionError(f"unknown option {name!r}")
        new = option.parse(raw)
        old = option.value
        if option.kind != "button":
            option.value = new
        return option, old, new

    def declarations(self) -> List[str]:
        return [o.declaration() for o in self._options.values()]


_SETOPTION = re.compile(r"^\s*setoption\s+name\s+(?P<name>.*?)(?:\s+value(?:\s+(?P<value>.*?))?)?\s*$",
                        re.IGNORECASE | re.DOTALL)


def parse_setoption(line: str) -> Tuple[str, Optional[str]]:
    """(name, raw value or None) from a whole `setoption name N [value V]` line.

    Names and values may hold spaces (`Move Overhead`, a path with blanks), so
    this reads the raw line instead of the tokens.
    """
    match = _SETOPTION.match(line)
    if not match or not match.group("name").strip():
        raise OptionError("malformed setoption: expected 'setoption name <name> [value <value>]'")
    return match.group("name").strip(), match.group("value")


def build_option_table(*, elo_min: int, elo_max: int, elo_default: int,
                       own_book_default: bool) -> OptionTable:
    """Every option Vireo declares, in the order GUIs show them."""
    return OptionTable([
        Option("Hash", "spin", 16, 1, 65536),             # MB of transposition table
        Option("Clear Hash", "button"),
        Option("Threads", "spin", 1, 1, 256),             # Lazy SMP search threads
        Option("MultiPV", "spin", 1, 1, 256),
        Option("Ponder", "check", False),
        # ms kept back per move for the GUI/network and this Python layer.
        Option("Move Overhead", "spin", 20, 0, 5000),
        Option("UCI_Chess960", "check", False),
        # python-chess's analyse() sets it (play() clears it): analysis never gets a book move.
        Option("UCI_AnalyseMode", "check", False),
        Option("UCI_ShowWDL", "check", False),
        Option("UCI_LimitStrength", "check", False),
        Option("UCI_Elo", "spin", elo_default, elo_min, elo_max),
        Option("OwnBook", "check", own_book_default),
        Option("BookFile", "string", ""),                 # empty: the book shipped with the engine
        Option("BookDepth", "spin", 20, 1, 255),          # plies from the game start
        Option("BookMode", "combo", "weighted", choices=("best", "weighted")),
        Option("SyzygyPath", "string", ""),               # directories, os.pathsep-separated
        Option("SyzygyProbeDepth", "spin", 1, 1, 100),
        Option("SyzygyProbeLimit", "spin", 7, 0, 7),      # most pieces probed
        Option("Syzygy50MoveRule", "check", True),
        Option("EvalFile", "string", ""),                 # empty: the network shipped with the engine
        Option("Use NNUE", "check", True),                # False: the classical evaluation
    ])
