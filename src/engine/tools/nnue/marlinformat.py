"""Marlinformat: the 32-byte training record that marlinflow defined and that
bullet and other open trainers read (docs/nnue-data.md has the table).

    u64   occupancy, bit i = square i occupied (A1 = 0 .. H8 = 63)
    u8x16 one 4-bit piece per occupied square, in ascending square order,
          low nibble first: 0 pawn .. 5 king, 6 a rook that still has its
          castling right; +8 for black
    u8    stm_ep: bit 7 set = black to move; low 7 bits the en-passant square,
          64 = none
    u8    halfmove clock
    u16   fullmove number
    i16   search score, centipawns, white's point of view
    u8    game result: 0 black won, 1 draw, 2 white won
    u8    unused, 0

All little-endian. The en-passant square is written only when an en-passant
capture is legal (as python-chess writes FENs), so equal positions give equal
records. Layout checked against marlinflow's description
(jnlt3/marlinflow, marlinformat/src/lib.rs) as other engines reproduce it.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

import chess
import numpy as np

RECORD_SIZE = 32
RECORD = struct.Struct("<Q16sBBHhBB")
NO_EP = 64
UNMOVED_ROOK = 6
BLACK_FLAG = 8
SCORE_LIMIT = 32767
BLACK_WIN, DRAW, WHITE_WIN = 0, 1, 2

# numpy view of a file of records, for the trainer and the statistics
DTYPE = np.dtype([("occupancy", "<u8"), ("pieces", "u1", 16), ("stm_ep", "u1"),
                  ("halfmove", "u1"), ("fullmove", "<u2"), ("score", "<i2"),
                  ("result", "u1"), ("extra", "u1")])
assert DTYPE.itemsize == RECORD_SIZE == RECORD.size


class RecordError(ValueError):
    """Bytes that are not a valid record (the message says why)."""


@dataclass
class Sample:
    board: chess.Board
    score: int      # centipawns, white's point of view
    result: int     # BLACK_WIN, DRAW or WHITE_WIN


def encode(board: chess.Board, score: int, result: int) -> bytes:
    if result not in (BLACK_WIN, DRAW, WHITE_WIN):
        raise RecordError(f"result {result} is not 0, 1 or 2")
    nibbles = []
    rights = board.clean_castling_rights()
    for square in chess.scan_forward(board.occupied):
        piece = board.piece_at(square)
        code = piece.piece_type - 1
        if piece.piece_type == chess.ROOK and rights & chess.BB_SQUARES[square]:
            code = UNMOVED_ROOK
        nibbles.append(code | (0 if piece.color else BLACK_FLAG))
    if len(nibbles) > 32:
        raise RecordError(f"{len(nibbles)} pieces; a record holds at most 32")
    nibbles += [0] * (32 - len(nibbles))
    packed = bytes(nibbles[i] | (nibbles[i + 1] << 4) for i in range(0, 32, 2))
    ep = board.ep_square if board.ep_square is not None and board.has_legal_en_passant() else NO_EP
    stm_ep = ep | (0 if board.turn else 0x80)
    score = max(-SCORE_LIMIT, min(SCORE_LIMIT, int(score)))
    return RECORD.pack(board.occupied, packed, stm_ep, min(board.halfmove_clock, 255),
                       min(board.fullmove_number, 65535), score, result, 0)


def decode(data: bytes) -> Sample:
    if len(data) != RECORD_SIZE:
        raise RecordError(f"a record is {RECORD_SIZE} bytes, got {len(data)}")
    occupancy, packed, stm_ep, halfmove, fullmove, score, result, _ = RECORD.unpack(data)
    if result not in (BLACK_WIN, DRAW, WHITE_WIN):
        raise RecordError(f"result byte {result} is not 0, 1 or 2")
    board = chess.Board(None)
    rights = 0
    for index, square in enumerate(chess.scan_forward(occupancy)):
        if index >= 32:
            raise RecordError("more than 32 occupied squares")
        code = (packed[index // 2] >> (4 * (index % 2))) & 0xF
        kind = code & 7
        if kind > UNMOVED_ROOK:
            raise RecordError(f"piece code {code} on {chess.square_name(square)}")
        if kind == UNMOVED_ROOK:
            rights |= chess.BB_SQUARES[square]
            kind = chess.ROOK - 1
        board.set_piece_at(square, chess.Piece(kind + 1, not code & BLACK_FLAG))
    board.turn = not stm_ep & 0x80
    ep = stm_ep & 0x7F
    board.ep_square = None if ep == NO_EP else ep
    if ep != NO_EP and ep > 63:
        raise RecordError(f"en-passant square {ep}")
    board.halfmove_clock = halfmove
    board.fullmove_number = fullmove
    board.castling_rights = rights
    if rights and board.clean_castling_rights() != rights:
        board.chess960 = True   # rooks with castling rights where standard chess has none
    return Sample(board, score, result)


def result_code(result_text: str) -> int:
    """'1.0' / '0.5' / '0.0' (or '1-0', '1/2-1/2', '0-1') -> WHITE_WIN / DRAW / BLACK_WIN."""
    codes = {"1.0": WHITE_WIN, "1": WHITE_WIN, "1-0": WHITE_WIN, "0.5": DRAW, "1/2-1/2": DRAW,
             "0.0": BLACK_WIN, "0": BLACK_WIN, "0-1": BLACK_WIN}
    try:
        return codes[result_text.strip()]
    except KeyError:
        raise RecordError(f"result {result_text!r} is not 1.0, 0.5 or 0.0") from None


RESULT_TEXT = {WHITE_WIN: "1.0", DRAW: "0.5", BLACK_WIN: "0.0"}
