"""Parsing the arguments of `position` and `go` into plain values.

Only the syntax is checked here; whether a FEN or a move is legal is the
core's business (uci.py asks it). Problems that leave the rest of the command
usable (a bad `go depth x`) become warnings; fatal ones raise UciSyntaxError.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

# Limits the core accepts; larger numbers from a GUI are clamped, not refused.
MAX_DEPTH = 120
MAX_INT = 2**62


class UciSyntaxError(ValueError):
    """A command that cannot be understood; the message is meant for the user."""


def parse_position(tokens: List[str]) -> Tuple[Optional[str], List[str]]:
    """(FEN or None for the start position, moves) from the tokens after `position`."""
    if not tokens:
        raise UciSyntaxError("position needs 'startpos' or 'fen <FEN>'")
    head = tokens[0].lower()
    if head == "startpos":
        fen, rest = None, tokens[1:]
    elif head == "fen":
        lowered = [t.lower() for t in tokens]
        end = lowered.index("moves") if "moves" in lowered else len(tokens)
        fen_fields = tokens[1:end]
        if not fen_fields:
            raise UciSyntaxError("position fen: the FEN is missing")
        fen, rest = " ".join(fen_fields), tokens[end:]
    else:
        raise UciSyntaxError(f"position needs 'startpos' or 'fen', not {tokens[0]!r}")
    if not rest:
        return fen, []
    if rest[0].lower() != "moves":
        raise UciSyntaxError(f"position: expected 'moves' after the position, not {rest[0]!r}")
    return fen, rest[1:]


@dataclass
class GoCommand:
    searchmoves: List[str] = field(default_factory=list)
    ponder: bool = False
    infinite: bool = False
    wtime: Optional[int] = None
    btime: Optional[int] = None
    winc: Optional[int] = None
    binc: Optional[int] = None
    movestogo: Optional[int] = None
    depth: Optional[int] = None
    nodes: Optional[int] = None
    mate: Optional[int] = None
    movetime: Optional[int] = None
    perft: Optional[int] = None
    warnings: List[str] = field(default_factory=list)

    def has_clock(self) -> bool:
        return self.wtime is not None or self.btime is not None

    def holds_bestmove(self) -> bool:
        """UCI: in infinite and ponder mode bestmove waits for stop or ponderhit."""
        return self.infinite or self.ponder


_FLAGS = {"ponder", "infinite"}
# Clock values may be negative (some GUIs report an overdrawn clock); the rest may not.
_NUMBERS = {"wtime": True, "btime": True, "winc": True, "binc": True, "movestogo": False,
            "depth": False, "nodes": False, "mate": False, "movetime": False, "perft": False}
_KEYWORDS = _FLAGS | set(_NUMBERS) | {"searchmoves"}


def parse_go(tokens: List[str]) -> GoCommand:
    go = GoCommand()
    i = 0
    while i < len(tokens):
        word = tokens[i].lower()
        i += 1
        if word in _FLAGS:
            setattr(go, word, True)
        elif word == "searchmoves":
            while i < len(tokens) and tokens[i].lower() not in _KEYWORDS:
                go.searchmoves.append(tokens[i])
                i += 1
            if not go.searchmoves:
                go.warnings.append("go searchmoves: no moves given")
        elif word in _NUMBERS:
            if i >= len(tokens):
                go.warnings.append(f"go {word}: the number is missing")
                continue
            raw = tokens[i]
            i += 1
            try:
                number = int(raw)
            except ValueError:
                go.warnings.append(f"go {word}: {raw!r} is not an integer; ignored")
                continue
            if number < 0 and not _NUMBERS[word]:
                go.warnings.append(f"go {word}: {number} is negative; ignored")
                continue
            setattr(go, word, max(-MAX_INT, min(number, MAX_INT)))
        else:
            go.warnings.append(f"go: unknown parameter {tokens[i - 1]!r} ignored")
    _normalise(go)
    return go


def _normalise(go: GoCommand) -> None:
    if go.movestogo == 0:
        go.movestogo = None  # some GUIs send 0 for "no moves-to-go": treat as sudden death
    if go.depth is not None:
        if go.depth == 0:
            go.warnings.append("go depth 0: searching depth 1")
        go.depth = max(1, min(go.depth, MAX_DEPTH))
    if go.nodes == 0:
        go.warnings.append("go nodes 0: searching 1 node")
        go.nodes = 1
    if go.mate == 0:
        go.warnings.append("go mate 0: ignored")
        go.mate = None
    if go.perft is not None and go.perft > 20:
        go.warnings.append(f"go perft {go.perft}: too deep, ignored")
        go.perft = None
