"""The kept game format (engine/tools/nnue/games/layout.py): any legal game
survives encoding, with castling (standard and Chess960), en passant and
every promotion, and bad bytes are refused with a message."""
import random

import chess
import pytest

from engine.tools.nnue.games.expand import count_kept, expand_game
from engine.tools.nnue.games.files import count
from engine.tools.nnue.games.layout import (NO_SCORE, GameFormatError, encode_game, iter_games,
                                            packed_size)
from engine.tools.nnue.marlinformat import BLACK_WIN, DRAW, WHITE_WIN, encode

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/pPpp1ppp/8/3Pp3/8/8/PPP2pPP/R3K2R w KQkq e6 0 12",     # en passant, promotions, castling
    "4k3/1P6/8/8/8/8/6p1/4K3 b - - 0 40",                          # promotions for both sides
]


def random_game(board, rng, plies=120):
    """Random legal moves, preferring the special ones so that each appears."""
    start = board.copy(stack=False)
    moves, scores = [], []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        special = [m for m in legal if m.promotion or board.is_castling(m) or board.is_en_passant(m)]
        move = rng.choice(special if special and rng.random() < 0.5 else legal)
        moves.append(move)
        scores.append(rng.choice([NO_SCORE, rng.randint(-32767, 32767), rng.randint(-300, 300)]))
        board.push(move)
    return start, moves, scores


def boards(rng):
    for fen in STARTS:
        yield chess.Board(fen)
    for number in rng.sample(range(960), 6):
        yield chess.Board.from_chess960_pos(number)


def test_random_games_round_trip():
    rng = random.Random(38)
    seen = {"castling": 0, "en passant": 0, "promotion": 0, "chess960 castling": 0}
    data, games = [], []
    for board in boards(rng):
        for _ in range(4):
            start, moves, scores = random_game(board.copy(), rng)
            result = rng.choice([BLACK_WIN, DRAW, WHITE_WIN])
            raw = encode_game(start, moves, scores, result, 3, 0)
            assert len(raw) == packed_size(len(moves))
            data.append(raw)
            games.append((start, moves, scores, result))
            replay = start.copy()
            for move in moves:
                if replay.is_castling(move):
                    seen["chess960 castling" if replay.chess960 else "castling"] += 1
                seen["en passant"] += replay.is_en_passant(move)
                seen["promotion"] += bool(move.promotion)
                replay.push(move)
    assert all(seen.values()), seen
    decoded = list(iter_games(b"".join(data)))
    assert len(decoded) == len(games)
    for game, (start, moves, scores, result) in zip(decoded, games):
        assert game.result == result and game.skip_plies == 3 and game.scores == scores
        ours, theirs = game.start.copy(), start.copy()
        assert encode(ours, 0, result) == encode(theirs, 0, result)
        for move, original in zip(game.moves, moves):
            assert ours.is_legal(move)
            ours.push(move)
            theirs.push(original)
            assert ours.board_fen() == theirs.board_fen()
            assert ours.clean_castling_rights() == theirs.clean_castling_rights()
            assert encode(ours, 0, result) == encode(theirs, 0, result)
    counted = count(b"".join(data))
    assert (counted.games, counted.moves) == (len(games), sum(len(g[1]) for g in games))


def test_the_stored_count_is_checked_on_expansion():
    board = chess.Board()
    moves = [chess.Move.from_uci(m) for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]]
    scores = [20, 25, 30, 20, 35]
    game = next(iter_games(encode_game(board, moves, scores, DRAW, 0, 0)))
    right = count_kept(game)
    assert right == 5
    game.positions = right
    assert len(expand_game(game)) == right
    game.positions = right - 1
    with pytest.raises(GameFormatError, match="gives 5 positions"):
        expand_game(game)


@pytest.mark.parametrize("raw, words", [
    (encode(chess.Board(), 0, DRAW), "cut off"),
    (encode(chess.Board(), 0, DRAW) + b"\x0c\x03\x00\x00", "no end marker"),
    (encode(chess.Board(), 0, DRAW)[:30] + b"\x07\x00" + b"\0" * 4, "result"),
])
def test_bad_bytes_are_refused(raw, words):
    with pytest.raises(GameFormatError, match=words):
        list(iter_games(raw))


def test_an_illegal_move_is_refused_on_expansion():
    game = next(iter_games(encode_game(chess.Board(), [chess.Move.from_uci("e2e4")], [0], DRAW, 0, 1)))
    game.moves[0] = chess.Move.from_uci("e2e5")
    with pytest.raises(GameFormatError, match="not legal"):
        expand_game(game)
