"""The bytes of one kept game (docs/selfplay.md has the table).

In the spirit of viriformat (Viridithas's game format): the start position
once, then 4 bytes a move instead of a 32-byte record a position.

    32 bytes  the start position as a Marlinformat record (marlinformat.py),
              whose last four bytes mean here:
                u16  positions the position filter keeps from this game
                     (expand.py checks it on every expansion)
                u8   game result: 0 black won, 1 draw, 2 white won
                u8   skip plies: the filter keeps no position before this ply
    4 bytes   per move, in the order played:
                u16  move: bits 0-5 from, 6-11 to, 12-13 promotion piece
                     (0 knight .. 3 queen), 14-15 kind (0 normal, 1 en
                     passant, 2 castling, 3 promotion); castling is written
                     king takes own rook, as in Chess960, so one form
                     serves both games
                i16  the search score before the move, centipawns, white's
                     point of view; -32768 = no score (a book move, a PGN
                     move without one)
    4 bytes   zero: the end of the game (move 0 would be a1a1, never legal)

All little-endian. A file is games one after another.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import Iterator, List, Sequence

import chess

from ..marlinformat import BLACK_WIN, DRAW, RECORD_SIZE, WHITE_WIN, RecordError, decode, encode

START_SIZE = RECORD_SIZE
MOVE = struct.Struct("<Hh")
TAIL = struct.Struct("<HBB")        # positions, result, skip plies: bytes 28..31 of the start
END = b"\0\0\0\0"
NO_SCORE = -32768
SCORE_LIMIT = 32767
NORMAL, EN_PASSANT, CASTLING, PROMOTION = 0, 1, 2, 3


class GameFormatError(ValueError):
    """Bytes that are not a kept game; the message says where and why."""


@dataclass
class Game:
    start: chess.Board
    moves: List[chess.Move] = field(default_factory=list)    # castling as king takes rook
    scores: List[int] = field(default_factory=list)          # white's view; NO_SCORE for none
    result: int = DRAW
    skip_plies: int = 0
    positions: int = 0      # what the filter keeps, as the writer counted it


def packed_size(moves: int) -> int:
    return START_SIZE + MOVE.size * (moves + 1)


def castling_as_king_takes_rook(board: chess.Board, move: chess.Move) -> chess.Move:
    if board.occupied_co[board.turn] & chess.BB_SQUARES[move.to_square]:
        return move         # already so (Chess960)
    rank = chess.square_rank(move.from_square)
    rook_file = 7 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 0
    return chess.Move(move.from_square, chess.square(rook_file, rank))


def encode_move(board: chess.Board, move: chess.Move) -> int:
    """The 16-bit move; board is the position before it."""
    kind = NORMAL
    if move.promotion:
        kind = PROMOTION
    elif board.is_castling(move):
        kind, move = CASTLING, castling_as_king_takes_rook(board, move)
    elif board.is_en_passant(move):
        kind = EN_PASSANT
    promotion = move.promotion - chess.KNIGHT if move.promotion else 0
    return move.from_square | move.to_square << 6 | promotion << 12 | kind << 14


def decode_move(code: int) -> chess.Move:
    promotion = (code >> 12 & 3) + chess.KNIGHT if code >> 14 == PROMOTION else None
    return chess.Move(code & 63, code >> 6 & 63, promotion)


def clamp_score(score: int) -> int:
    return max(-SCORE_LIMIT, min(SCORE_LIMIT, int(score)))


def encode_game(start: chess.Board, moves: Sequence[chess.Move], scores: Sequence[int], result: int,
                skip_plies: int, positions: int) -> bytes:
    """moves as python-chess plays them from start; scores white's view or NO_SCORE."""
    if result not in (BLACK_WIN, DRAW, WHITE_WIN):
        raise GameFormatError(f"result {result} is not 0, 1 or 2")
    if len(moves) != len(scores):
        raise GameFormatError(f"{len(moves)} moves but {len(scores)} scores")
    if not 0 <= positions <= min(len(moves), 65535):
        raise GameFormatError(f"{positions} positions kept from {len(moves)} moves")
    head = bytearray(encode(start, 0, result))
    TAIL.pack_into(head, 28, positions, result, min(max(skip_plies, 0), 255))
    parts = [bytes(head)]
    board = start.copy(stack=False)
    for move, score in zip(moves, scores):
        parts.append(MOVE.pack(encode_move(board, move), score if score == NO_SCORE else clamp_score(score)))
        board.push(move)
    parts.append(END)
    return b"".join(parts)


def decode_start(head: bytes) -> Game:
    positions, result, skip = TAIL.unpack_from(head, 28)
    plain = bytearray(head)
    plain[28:32] = bytes([0, 0, result, 0])     # the Marlinformat reading of the same bytes
    try:
        sample = decode(bytes(plain))
    except RecordError as exc:
        raise GameFormatError(f"start position: {exc}") from None
    return Game(sample.board, result=result, skip_plies=skip, positions=positions)


def iter_games(data: bytes, name: str = "data") -> Iterator[Game]:
    """The games of a whole file's bytes (decompressed), in order."""
    offset, number = 0, 0
    view = memoryview(data)
    while offset < len(data):
        if len(data) - offset < START_SIZE + len(END):
            raise GameFormatError(f"{name}: game {number} cut off at byte {offset}")
        game = decode_start(bytes(view[offset:offset + START_SIZE]))
        offset += START_SIZE
        while True:
            if offset + MOVE.size > len(data):
                raise GameFormatError(f"{name}: game {number} has no end marker")
            code, score = MOVE.unpack_from(data, offset)
            offset += MOVE.size
            if code == 0:
                break
            game.moves.append(decode_move(code))
            game.scores.append(score)
        yield game
        number += 1
