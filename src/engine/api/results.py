"""The core's reports as python-chess types: an InfoDict per line, a PlayResult.

The keys and units are those python-chess gives for the same `info` line
over UCI (score a PovScore, pv a list of chess.Move, time in seconds), plus
`wdl` always (Vireo's model, uci/wdl.py), whether or not UCI_ShowWDL is on.
"""
from __future__ import annotations

from typing import List, Optional

import chess
import chess.engine

from ..uci.wdl import wdl_from_score


def pov_score(score, turn: chess.Color) -> chess.engine.PovScore:
    kind, value = score
    relative = chess.engine.Mate(int(value)) if kind == "mate" else chess.engine.Cp(int(value))
    return chess.engine.PovScore(relative, turn)


def parse_pv(board: chess.Board, moves: List[str]) -> List[chess.Move]:
    """The pv's moves read on the board, as python-chess reads them (it stops
    at the first move it cannot read)."""
    position = board.copy(stack=False)
    pv = []
    for text in moves:
        try:
            move = position.parse_uci(text)
        except ValueError:
            break
        pv.append(move)
        position.push(move)
    return pv


def info_dict(line: dict, board: chess.Board) -> chess.engine.InfoDict:
    """One line of the core's report (docs/core-api.md) on the searched board."""
    info: chess.engine.InfoDict = {}
    for key in ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "tbhits"):
        if line.get(key) is not None:
            info[key] = int(line[key])
    if line.get("time") is not None:
        info["time"] = int(line["time"]) / 1000.0
    if line.get("score") is not None:
        info["score"] = pov_score(line["score"], board.turn)
        info["wdl"] = chess.engine.PovWdl(chess.engine.Wdl(*wdl_from_score(*line["score"])), board.turn)
        if line.get("bound") == "lower":
            info["lowerbound"] = True
        elif line.get("bound") == "upper":
            info["upperbound"] = True
    info["pv"] = parse_pv(board, line.get("pv") or [])
    return info


def no_move_info(board: chess.Board) -> chess.engine.InfoDict:
    """What `vireo` reports when the side to move has no legal move."""
    score = ("mate", 0) if board.is_check() else ("cp", 0)
    return info_dict({"depth": 0, "seldepth": 0, "multipv": 1, "score": score, "nodes": 0,
                      "nps": 0, "time": 0, "pv": []}, board)


def analysis_lines(lines: dict, board: chess.Board, multipv: int) -> List[chess.engine.InfoDict]:
    """The final report of each line, best first (at most multipv of them)."""
    found = [info_dict(lines[number], board) for number in sorted(lines) if number <= multipv]
    return found or [no_move_info(board)]


def play_result(board: chess.Board, best: Optional[str], ponder: Optional[str],
                info: chess.engine.InfoDict) -> chess.engine.PlayResult:
    found = parse_pv(board, [best]) if best else []
    move = found[0] if found else None
    reply = None
    if move is not None and ponder:
        after = board.copy(stack=False)
        after.push(move)
        found = parse_pv(after, [ponder])
        reply = found[0] if found else None
    return chess.engine.PlayResult(move, reply, info)
