"""evaluate_many: the static evaluation of many positions, in the core.

FENs go to the core as they are (its C reader takes the common forms and
leaves the rest to the full FEN parser, which also words the errors);
python-chess boards go as their eight piece bitboards and the side to move,
read without building a FEN (board.fen() alone costs some 30 us). Either way
the loop over the positions runs in C with the GIL released
(core/batch_eval.pxi).
"""
from __future__ import annotations

from typing import Sequence

import chess
import numpy as np


def _bitboards(boards: Sequence[chess.Board]) -> np.ndarray:
    return np.array([(b.occupied_co[chess.WHITE], b.occupied_co[chess.BLACK], b.pawns, b.knights,
                      b.bishops, b.rooks, b.queens, b.kings) for b in boards], dtype=np.uint64).reshape(-1, 8)


def _describe(item) -> str:
    return repr(item) if isinstance(item, str) else f"board {item.fen()}"


def evaluate_many(core, positions, *, use_nnue: bool, chess960: bool, white: bool) -> np.ndarray:
    items = positions if isinstance(positions, list) else list(positions)
    n = len(items)
    out = np.zeros(n, dtype=np.int32)
    status = np.zeros(n, dtype=np.uint8)
    fens = [i for i, item in enumerate(items) if type(item) is str]
    boards = [i for i, item in enumerate(items) if isinstance(item, chess.Board)]
    if len(fens) + len(boards) != n:
        bad = next(i for i, item in enumerate(items) if type(item) is not str and not isinstance(item, chess.Board))
        raise ValueError(f"position {bad}: expected a FEN string or a chess.Board, not {type(items[bad]).__name__}")
    if len(fens) == n:
        core.static_eval_fens(items, out, status, use_nnue, chess960)
    elif fens:
        part_out, part_status = np.zeros(len(fens), np.int32), np.zeros(len(fens), np.uint8)
        core.static_eval_fens([items[i] for i in fens], part_out, part_status, use_nnue, chess960)
        out[fens], status[fens] = part_out, part_status
    if boards:
        chosen = [items[i] for i in boards]
        turns = np.array([b.turn for b in chosen], dtype=np.uint8)
        part_out, part_status = np.zeros(len(boards), np.int32), np.zeros(len(boards), np.uint8)
        core.static_eval_bitboards(_bitboards(chosen), turns, part_out, part_status, use_nnue)
        out[boards], status[boards] = part_out, part_status
    for i in np.flatnonzero(status):
        item = items[i]
        if type(item) is str and status[i] == core.BATCH_DEFERRED:
            try:      # a form the C reader leaves to the full parser, or an error it words
                position = core.Position(item, chess960)
            except ValueError as exc:
                raise ValueError(f"position {i}: invalid FEN {item!r}: {exc}") from None
            out[i] = core.static_eval_position(position, use_nnue)
        else:
            raise ValueError(f"position {i}: {core.BATCH_MESSAGES[int(status[i])]} ({_describe(item)})")
    if white:
        black = [i for i in range(n) if not _white_to_move(items[i])]
        out[black] *= -1
    return out


def _white_to_move(item) -> bool:
    if isinstance(item, chess.Board):
        return item.turn == chess.WHITE
    fields = item.split()
    return fields[1] == "w"
