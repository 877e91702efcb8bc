"""`vireo datagen OUT.games.xz --from-pgn IN.pgn ...`: PGN games as fastchess,
cutechess-cli and `vireo match` write them become kept games, each move's
score read from its comment, from white's point of view."""
import gzip
import lzma
import random
import subprocess
import sys

import chess
import chess.pgn
import pytest

from engine.tools.nnue.games.expand import expand_games
from engine.tools.nnue.games.files import read_games
from engine.tools.nnue.games.layout import NO_SCORE
from engine.tools.nnue.games.pgn import MATE, mover_score
from engine.tools.nnue.marlinformat import BLACK_WIN, DRAW, WHITE_WIN, decode


@pytest.mark.parametrize("comment, score", [
    ("+0.31/14 0.260s", 31),
    ("-1.05/12 0.2s, White wins by adjudication", -105),
    ("0.00/0 0s", 0),
    ("+M5/9 0.1s", MATE - 9),
    ("-M5/9 0.1s", -(MATE - 10)),
    ("+M1/1 0.01s, White mates", MATE - 1),
    ("book", None),
    ("", None),
    ("0.260s", None),
    ("+0.31", 31),
])
def test_scores_from_comments(comment, score):
    assert mover_score(comment) == score


def pgn_text(moves, comments, result, fen=None, chess960=False):
    board = chess.Board(fen, chess960=chess960) if fen else chess.Board(chess960=chess960)
    game = chess.pgn.Game.from_board(board)
    game.headers["Result"] = result
    if chess960:
        game.headers["Variant"] = "Chess960"
    node = game
    for move, comment in zip(moves, comments):
        node = node.add_variation(board.parse_uci(move), comment=comment)
        board.push(node.move)
    return str(game) + "\n\n"


GAME_A = (["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6"],
          ["book", "book", "+0.31/14 0.260s", "-0.20/13 0.2s", "+0.40/15 0.3s", "-0.35/14 0.2s",
           "+0.22/12 0.1s", "-0.10/13 0.2s", "", "-0.05/14 0.2s, Black resigns"], "1-0")
FEN_B = "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 40"
GAME_B = (["a1a8"], ["+M1/1 0.01s, White mates"], "1-0")
FRC = chess.Board.from_chess960_pos(100)


def frc_game():
    """Seeded random moves that castle as soon as they can, then play on a little."""
    rng, board, moves, castlings = random.Random(960), FRC.copy(), [], 0
    while (castlings < 1 or len(moves) % 8) and len(moves) < 200 and not board.is_game_over():
        legal = sorted(board.legal_moves, key=lambda m: m.uci())
        castles = [m for m in legal if board.is_castling(m)]
        move = castles[0] if castles else rng.choice(legal)
        castlings += bool(castles)
        moves.append(move.uci())
        board.push(move)
    assert castlings >= 1
    return moves, ["+0.10/8 0.1s"] * len(moves), "1/2-1/2"


def test_import_keeps_moves_scores_starts_and_results(tmp_path):
    frc_moves, frc_comments, frc_result = frc_game()
    text = (pgn_text(*GAME_A) + pgn_text(*GAME_B, fen=FEN_B)
            + pgn_text(frc_moves, frc_comments, frc_result, fen=FRC.fen(), chess960=True)
            + pgn_text(["d2d4"], ["+0.1/5 0.1s"], "*"))
    (tmp_path / "all.pgn.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "c.pgn.xz").write_bytes(lzma.compress(pgn_text(*GAME_B, fen=FEN_B).replace("1-0", "0-1").encode()))
    out = tmp_path / "out.games.xz"
    result = subprocess.run([sys.executable, "-m", "engine", "datagen", str(out), "--from-pgn",
                             str(tmp_path / "all.pgn.gz"), str(tmp_path / "c.pgn.xz"), "--skip-plies", "0"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "4 games" in result.stdout and "1 games skipped" in result.stdout
    games = list(read_games(out))
    a, b, frc, b_again = games
    assert [m.uci() for m in a.moves][:8] == GAME_A[0][:8] and a.result == WHITE_WIN
    assert a.scores[:4] == [NO_SCORE, NO_SCORE, 31, 20]        # black's -0.20 is +20 for white
    assert a.scores[8] == NO_SCORE                            # no comment
    assert a.start.fen() == chess.STARTING_FEN
    assert b.start.fen() == FEN_B and b.scores == [MATE - 1] and b.result == WHITE_WIN
    assert b_again.result == BLACK_WIN
    assert frc.result == DRAW and frc.start.board_fen() == FRC.board_fen()
    replay = frc.start.copy()
    castled = False
    for move in frc.moves:
        castled |= replay.is_castling(move)
        replay.push(move)
    assert castled
    records = [decode(r) for r in expand_games([a])]
    # the filter: scored, not in check, not before a capture (b5c6, d7c6) nor a mate score
    assert [r.score for r in records] == [31, 20, 40, 35, 5]
    assert all(r.result == WHITE_WIN for r in records)
    assert not list(expand_games([b]))                        # a mate score is never trained on


def test_pgn_import_errors(tmp_path):
    out = tmp_path / "o.games.xz"
    vireo = [sys.executable, "-m", "engine", "datagen"]
    missing = subprocess.run(vireo + [str(out), "--from-pgn", str(tmp_path / "none.pgn")], capture_output=True, text=True)
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    (tmp_path / "x.pgn").write_text(pgn_text(["e2e4"], ["+0.1/1 0s"], "*"))
    unfinished = subprocess.run(vireo + [str(out), "--from-pgn", str(tmp_path / "x.pgn")], capture_output=True, text=True)
    assert unfinished.returncode == 2 and "no usable game" in unfinished.stderr
    wrong = subprocess.run(vireo + [str(tmp_path / "o.bin"), "--from-pgn", str(tmp_path / "x.pgn")],
                           capture_output=True, text=True)
    assert wrong.returncode == 2 and ".games.xz" in wrong.stderr
    assert not out.exists() and "Traceback" not in missing.stderr + unfinished.stderr + wrong.stderr
