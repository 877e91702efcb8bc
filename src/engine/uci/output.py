"""Writing protocol lines: whole, flushed, one thread at a time; and `info` formatting.

The reader thread (readyok, option lines) and the search thread (info,
bestmove) both write; a lock keeps their lines from interleaving and a flush
after each line keeps GUIs from waiting on a buffer.
"""
from __future__ import annotations

import threading
from typing import BinaryIO, Optional

from ..syzygy.tables import MATE_IN_MAX_PLY, MATE_SCORE, TB_WIN_IN_MAX_PLY, TB_WIN_SCORE
from .wdl import wdl_from_score

# Reported TB wins: "cp 20000" minus the plies to the tablebase position (as
# Stockfish reports them), so GUIs do not mistake them for mates.
UCI_TB_WIN_CP = 20000


class Output:
    def __init__(self, stream: BinaryIO):
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False  # the GUI went away: further lines are dropped

    def send(self, line: str) -> None:
        data = (line.replace("\n", " ").replace("\r", " ") + "\n").encode("utf-8", "replace")
        with self._lock:
            if self.closed:
                return
            try:
                self._stream.write(data)
                self._stream.flush()
            except (BrokenPipeError, OSError, ValueError):
                self.closed = True

    def info_string(self, message: str) -> None:
        self.send(f"info string {message}")


def format_score(score, bound: Optional[str] = None) -> str:
    kind, value = score
    text = f"score {'mate' if kind == 'mate' else 'cp'} {int(value)}"
    if bound == "lower":
        text += " lowerbound"
    elif bound == "upper":
        text += " upperbound"
    return text


def format_info(info: dict, show_wdl: bool = False) -> str:
    """One `info` line from the core's report dict (see docs/core-api.md)."""
    parts = ["info"]
    for key in ("depth", "seldepth", "multipv"):
        if info.get(key) is not None:
            parts.append(f"{key} {int(info[key])}")
    if "currmove" in info:
        parts.append(f"currmove {info['currmove']}")
        if info.get("currmovenumber") is not None:
            parts.append(f"currmovenumber {int(info['currmovenumber'])}")
    score = info.get("score")
    if score is not None:
        parts.append(format_score(score, info.get("bound")))
        if show_wdl:
            parts.append("wdl %d %d %d" % wdl_from_score(*score))
    for key in ("nodes", "nps", "hashfull", "tbhits", "time"):
        if info.get(key) is not None:
            parts.append(f"{key} {int(info[key])}")
    pv = info.get("pv")
    if pv:
        parts.append("pv " + " ".join(pv))
    return " ".join(parts)


def format_bestmove(best: Optional[str], ponder: Optional[str] = None) -> str:
    if best is None:
        return "bestmove (none)"  # no legal move (mate or stalemate), as Stockfish says
    return f"bestmove {best}" + (f" ponder {ponder}" if ponder else "")


def uci_score(score: int) -> str:
    """The score field of an info line for a search score (the core's scale,
    engine.syzygy.tables): mates as "mate N" (moves), tablebase wins as
    "cp 20000" minus their distance in plies, everything else as "cp N"."""
    if abs(score) >= MATE_IN_MAX_PLY:
        moves = (MATE_SCORE - abs(score) + 1) // 2
        return f"mate {moves if score > 0 else -moves}"
    if abs(score) > TB_WIN_IN_MAX_PLY:
        cp = UCI_TB_WIN_CP - (TB_WIN_SCORE - abs(score))
        return f"cp {cp if score > 0 else -cp}"
    return f"cp {score}"
