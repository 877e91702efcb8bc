"""Marlinformat records to the network's inputs, a batch at a time, in numpy.

Each record becomes two rows of 32 feature indices (network_file.feature_index:
the side to move's view first, then the other side's), padded with PAD, and
the targets from the side to move's point of view: the search score in
centipawns and the game result (1 win, 0.5 draw, 0 loss).

Mirroring (data augmentation): a board without castling rights plays the same
game when every file is reflected (a <-> h), so its mirror image, with the same
score and result, is a second training position for free. Boards that still
hold a castling right (an unmoved rook in Marlinformat) are never mirrored:
castling is not symmetric between the wings.
"""
from __future__ import annotations

from typing import Tuple

import numpy as np

from ..marlinformat import DTYPE, UNMOVED_ROOK

PAD = 768          # index of the all-zero row the padding points to
MAX_PIECES = 32


def _pieces(records: np.ndarray):
    """Every piece of the batch: (row, rank among its board's pieces, square
    A1 = 0, Marlinformat code), boards in order and squares ascending."""
    count = len(records)
    occupancy = np.ascontiguousarray(records["occupancy"]).view(np.uint8).reshape(count, 8)
    bits = np.unpackbits(occupancy, axis=1, bitorder="little")              # [B, 64], A1 first
    packed = records["pieces"]
    nibbles = np.stack([packed & 0xF, packed >> 4], axis=2).reshape(count, 32)
    rows, squares = np.nonzero(bits)                                         # ascending squares per row
    per_row = bits.sum(axis=1).astype(np.int64)
    rank = np.arange(len(rows)) - np.repeat(np.cumsum(per_row) - per_row, per_row)
    return rows, rank, squares.astype(np.int64), nibbles[rows, rank].astype(np.int64)


def mirrorable(records: np.ndarray) -> np.ndarray:
    """[B] bool: the boards that hold no castling right (no unmoved rook)."""
    records = np.ascontiguousarray(records, dtype=DTYPE)
    rows, _rank, _squares, code = _pieces(records)
    castling = np.zeros(len(records), dtype=bool)
    castling[rows[(code & 7) == UNMOVED_ROOK]] = True
    return ~castling


def batch_features(records: np.ndarray, mirror: np.ndarray = None
                   ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(stm indices [B,32], other side's indices [B,32], score [B], result [B]).

    mirror: optional [B] bool, the boards to reflect a <-> h (only boards that
    `mirrorable` allows; the caller chooses which)."""
    records = np.ascontiguousarray(records, dtype=DTYPE)
    count = len(records)
    rows, rank, squares, code = _pieces(records)
    piece = code & 7
    piece[piece == UNMOVED_ROOK] = 3                                         # an unmoved rook is a rook
    black = code >> 3
    if mirror is not None:
        squares = np.where(np.asarray(mirror, dtype=bool)[rows], squares ^ 7, squares)
    white_view = black * 384 + piece * 64 + squares
    black_view = (1 - black) * 384 + piece * 64 + (squares ^ 56)
    black_to_move = (records["stm_ep"] >> 7).astype(bool)
    flip = black_to_move[rows]
    stm = np.full((count, MAX_PIECES), PAD, dtype=np.int64)
    other = np.full((count, MAX_PIECES), PAD, dtype=np.int64)
    stm[rows, rank] = np.where(flip, black_view, white_view)
    other[rows, rank] = np.where(flip, white_view, black_view)
    sign = np.where(black_to_move, -1.0, 1.0)
    score = records["score"].astype(np.float32) * sign
    white_result = records["result"].astype(np.float32) / 2
    result = np.where(black_to_move, 1 - white_result, white_result).astype(np.float32)
    return stm, other, score.astype(np.float32), result
