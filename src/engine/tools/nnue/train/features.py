"""Marlinformat records to the network's inputs, a batch at a time, in numpy.

Each record becomes two rows of 32 feature indices (network_file.board_features:
the side to move's view first, then the other side's), padded with the
all-zero row after the last feature (PAD = 768 for the plain network,
768 * K with K king buckets: `pad(layout)`), and the targets from the side
to move's point of view: the search score in centipawns and the game result
(1 win, 0.5 draw, 0 loss).

King buckets (network file version 3; layout = the file's u8[64] map, None for
the plain 768 features): each perspective's features move to its king's
bucket, KB[k ^ m] * 768, and the whole board is mirrored a <-> h for that
perspective (m = 7) when its king stands on files e-h, exactly as
network_file.king_context and board_features say.

Mirroring (data augmentation): a board without castling rights plays the same
game when every file is reflected (a <-> h), so its mirror image, with the same
score and result, is a second training position for free. Boards that still
hold a castling right (an unmoved rook in Marlinformat) are never mirrored:
castling is not symmetric between the wings. The reflection applies to every
piece, kings included, before the king buckets and their own mirror are
computed: a reflected board's features are those of the reflected board.
"""
from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from ..marlinformat import DTYPE, UNMOVED_ROOK
from ..network_file import INPUTS, check_king_buckets, king_bucket_layout

PAD = INPUTS       # index of the all-zero row the padding points to (plain network; see pad())
MAX_PIECES = 32
KING = 5           # Marlinformat's king code


def as_layout(king_buckets) -> Optional[np.ndarray]:
    """A king bucket map as network_file keeps it (u8[64]), or None for the
    plain network: from None, a count K (network_file.king_bucket_layout(K))
    or a map of 64 entries (checked)."""
    if king_buckets is None:
        return None
    if isinstance(king_buckets, (int, np.integer)):
        return king_bucket_layout(int(king_buckets))
    layout = np.asarray(king_buckets)
    if layout.shape != (64,) or not np.issubdtype(layout.dtype, np.integer) or layout.min() < 0 \
            or layout.max() > 255:
        raise ValueError(f"a king bucket map has 64 entries in 0..255, got {layout.dtype} {layout.shape}")
    layout = layout.astype(np.uint8)
    check_king_buckets(layout)
    return layout


def king_bucket_count(layout) -> int:
    """K, the king buckets of a map; 1 for None (the plain network)."""
    return 1 if layout is None else check_king_buckets(as_layout(layout))


def same_layout(a, b) -> bool:
    """Whether two king bucket maps (as features.as_layout takes them) are the same."""
    a, b = as_layout(a), as_layout(b)
    return (a is None and b is None) or (a is not None and b is not None and np.array_equal(a, b))


def describe_layout(layout) -> str:
    """'no king buckets' or 'K king buckets', for messages."""
    layout = as_layout(layout)
    if layout is None:
        return "no king buckets"
    count = king_bucket_count(layout)
    return f"{count} king bucket{'s' if count > 1 else ''}"


def pad(layout=None) -> int:
    """The padding index of a network with this king bucket map: 768 * K, the
    all-zero row after its features (768 for the plain network)."""
    return INPUTS * king_bucket_count(layout)


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


def batch_features(records: np.ndarray, mirror: np.ndarray = None, layout=None
                   ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(stm indices [B,32], other side's indices [B,32], score [B], result [B]).

    mirror: optional [B] bool, the boards to reflect a <-> h (only boards that
    `mirrorable` allows; the caller chooses which). layout: the king bucket
    map (as_layout), None for the plain 768 features; the padding is then
    pad(layout)."""
    records = np.ascontiguousarray(records, dtype=DTYPE)
    count = len(records)
    rows, rank, squares, code = _pieces(records)
    piece = code & 7
    piece[piece == UNMOVED_ROOK] = 3                                         # an unmoved rook is a rook
    black = code >> 3
    if mirror is not None:
        squares = np.where(np.asarray(mirror, dtype=bool)[rows], squares ^ 7, squares)
    own = [squares, squares ^ 56]                                            # each side's own view
    base = [0, 0]
    padding = PAD
    if layout is not None:
        layout = as_layout(layout)
        padding = pad(layout)
        kings = np.zeros((count, 2), dtype=np.int64)                         # board squares, [white, black]
        is_king = piece == KING
        kings[rows[is_king], black[is_king]] = squares[is_king]
        kings ^= np.array([0, 56])                                           # each king in its own view
        flipped = np.where(kings % 8 >= 4, 7, 0)                             # m = 7: the king on files e-h
        first = layout.astype(np.int64)[kings ^ flipped] * INPUTS            # first feature of its bucket
        for p in (0, 1):
            own[p] = own[p] ^ flipped[rows, p]
            base[p] = first[rows, p]
    white_view = base[0] + black * 384 + piece * 64 + own[0]
    black_view = base[1] + (1 - black) * 384 + piece * 64 + own[1]
    black_to_move = (records["stm_ep"] >> 7).astype(bool)
    flip = black_to_move[rows]
    stm = np.full((count, MAX_PIECES), padding, dtype=np.int64)
    other = np.full((count, MAX_PIECES), padding, dtype=np.int64)
    stm[rows, rank] = np.where(flip, black_view, white_view)
    other[rows, rank] = np.where(flip, white_view, black_view)
    sign = np.where(black_to_move, -1.0, 1.0)
    score = records["score"].astype(np.float32) * sign
    white_result = records["result"].astype(np.float32) / 2
    result = np.where(black_to_move, 1 - white_result, white_result).astype(np.float32)
    return stm, other, score.astype(np.float32), result
