"""Checks a game as a GUI saved it: python-chess replays every move (it
records an illegal one in game.errors), there is a result, and the game was
not lost by forfeit (time, illegal move, crash, stalled engine)."""
import chess
import chess.pgn

# Words GUIs write when a game ends by forfeit: Cute Chess's Termination tag
# and result comments, xboard's result comments.
FORFEIT_WORDS = ("time", "illegal", "disconnect", "abandon", "stall", "crash", "forfeit", "flag")


def check_finished_game(game):
    """Asserts the above; returns the final board."""
    assert not game.errors, game.errors
    moves = list(game.mainline_moves())
    assert moves, "no moves"
    result = game.headers["Result"]
    assert result in ("1-0", "0-1", "1/2-1/2"), result
    ending = " ".join([game.headers.get("Termination", ""), game.end().comment]).lower()
    assert not any(word in ending for word in FORFEIT_WORDS), ending
    board = game.end().board()
    if board.is_checkmate():
        assert result == ("0-1" if board.turn == chess.WHITE else "1-0")
    return board
