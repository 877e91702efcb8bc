"""Marlinformat records (engine/tools/nnue/marlinformat.py): every field
survives encode -> decode, checked through python-chess on thousands of
positions from random games (castling, en passant, promotions, Chess960)
and on the shared Stockfish-labelled positions."""
import random

import chess
import pytest

from engine.tools.nnue.marlinformat import (BLACK_WIN, DRAW, RECORD_SIZE, WHITE_WIN, RecordError,
                                            decode, encode)


def random_game_boards(seed, games, chess960=False):
    rng = random.Random(seed)
    for _ in range(games):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        for _ in range(rng.randrange(20, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # prefer pawn pushes now and then: more en-passant chances and promotions
            pawn_moves = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
            board.push(rng.choice(pawn_moves if pawn_moves and rng.random() < 0.4 else moves))
            yield board.copy(stack=False)


def assert_round_trip(board, score, result):
    record = encode(board, score, result)
    assert len(record) == RECORD_SIZE
    sample = decode(record)
    assert sample.board.fen() == board.fen()        # pieces, side to move, castling, legal ep, clocks
    assert sample.board.castling_rights == board.clean_castling_rights()
    assert sample.board.is_valid()
    assert set(sample.board.legal_moves) == set(board.legal_moves)
    assert (sample.score, sample.result) == (score, result)


def test_random_standard_positions_round_trip():
    rng = random.Random(1)
    boards = list(random_game_boards(seed=7, games=60))
    assert len(boards) > 3000
    assert any(b.has_legal_en_passant() for b in boards) and any(b.castling_rights for b in boards)
    assert any(b.turn == chess.BLACK for b in boards) and any(len(b.pieces(chess.QUEEN, chess.WHITE)) > 1 for b in boards)
    for board in boards:
        assert_round_trip(board, rng.randint(-32767, 32767), rng.choice([BLACK_WIN, DRAW, WHITE_WIN]))


def test_chess960_positions_round_trip():
    boards = list(random_game_boards(seed=8, games=30, chess960=True))
    assert any(b.castling_rights for b in boards)
    for board in boards:
        assert_round_trip(board, 0, DRAW)


def test_the_layout_of_the_start_position():
    record = encode(chess.Board(), 35, WHITE_WIN)
    assert int.from_bytes(record[:8], "little") == 0xFFFF00000000FFFF
    # a1 rook with its castling right (6), b1 knight (1): low nibble first
    assert record[8] == 0x16
    # g8 black knight (1 + 8) low, h8 black rook with its right (6 + 8) high
    assert record[8 + 15] == 0xE9
    assert record[24] == 64 and record[25] == 0                   # white to move, no ep; halfmove 0
    assert int.from_bytes(record[26:28], "little") == 1            # fullmove
    assert int.from_bytes(record[28:30], "little", signed=True) == 35
    assert record[30] == WHITE_WIN and record[31] == 0


def test_black_to_move_and_en_passant_square():
    board = chess.Board("rnbqkbnr/ppp1pppp/8/8/3pP3/5N2/PPPP1PPP/RNBQKB1R b KQkq e3 0 3")
    record = encode(board, -12, DRAW)
    assert record[24] == 0x80 | chess.E3
    sample = decode(record)
    assert sample.board.ep_square == chess.E3 and sample.board.turn == chess.BLACK


def test_h8_rook_nibble_and_mate_score_clamp():
    board = chess.Board()
    record = encode(board, 40000, DRAW)
    assert int.from_bytes(record[28:30], "little", signed=True) == 32767
    assert record[23] >> 4 == 6 + 8                                 # h8: black rook that may castle


def test_labelled_positions_round_trip(data_lines):
    for line in data_lines:
        fen, score, result = line.split(";")
        code = {"1.0": WHITE_WIN, "0.5": DRAW, "0.0": BLACK_WIN}[result]
        assert_round_trip(chess.Board(fen), int(score), code)


@pytest.mark.parametrize("bad", [b"\0" * 31, bytes(30) + b"\x03\x00"])
def test_bad_records_are_refused(bad):
    with pytest.raises(RecordError):
        decode(bad)
