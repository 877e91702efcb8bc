"""The games to analyse, read from PGN files, each with a label a message can name.

A game python-chess cannot follow to its end (an illegal or unreadable move)
is kept as a failure that names the file, the game and the move, and the
other games are read on; so is a file that cannot be opened.
"""
from dataclasses import dataclass
from typing import List, Optional, Tuple

import chess
import chess.pgn


@dataclass
class GameInput:
    index: int                          # 1-based, over all files, in reading order
    source: str                         # the file, and the game's number in it
    game: chess.pgn.Game

    @property
    def label(self) -> str:
        h = self.game.headers
        return f"game {self.index} ({h.get('White', '?')} - {h.get('Black', '?')}, {self.source})"

    def moves(self) -> List[chess.Move]:
        return list(self.game.mainline_moves())


class _BadMove(ValueError):
    """A move the board refused, with where it stood."""


class _Builder(chess.pgn.GameBuilder):
    """python-chess's game builder, whose move errors also say the move number."""

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        try:
            return super().parse_san(board, san)
        except ValueError as exc:
            kind = "illegal" if isinstance(exc, chess.IllegalMoveError) else \
                "ambiguous" if isinstance(exc, chess.AmbiguousMoveError) else "unreadable"
            raise _BadMove(f"move {move_number(board)} {san} is {kind} in {board.fen()}") from None

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)   # kept for the message; python-chess would also log it


def move_number(board: chess.Board) -> str:
    """'12.' for White to move, '12...' for Black: how the move about to be played is numbered."""
    return f"{board.fullmove_number}{'.' if board.turn == chess.WHITE else '...'}"


def read_games(paths: List[str]) -> Tuple[List[GameInput], List[str]]:
    """(the games that can be analysed, messages for the files and games that cannot)."""
    games: List[GameInput] = []
    failures: List[str] = []
    index = 0
    for path in paths:
        try:
            handle = open(path, encoding="utf-8-sig", errors="replace")
        except OSError as exc:
            failures.append(f"{path}: cannot read it: {exc.strerror or exc}")
            continue
        with handle:
            number = 0
            while True:
                try:
                    game = chess.pgn.read_game(handle, Visitor=_Builder)
                except (OSError, UnicodeError) as exc:
                    failures.append(f"{path}: cannot read it after game {number}: {exc}")
                    break
                if game is None:
                    break
                number += 1
                if not _is_a_game(game):
                    continue
                index += 1
                item = GameInput(index, f"{path} #{number}", game)
                error = _first_error(game)
                if error is not None:
                    failures.append(f"{item.label}: {error}; game not analysed")
                    continue
                games.append(item)
    return games, failures


def _is_a_game(game: chess.pgn.Game) -> bool:
    """Stray text between games reads as an empty game with no tags: not a game."""
    return bool(game.errors or game.variations or any(k not in chess.pgn.TAG_ROSTER for k in game.headers)
                or any(game.headers.get(k, "?") not in ("?", "????.??.??", "*") for k in chess.pgn.TAG_ROSTER))


def _first_error(game: chess.pgn.Game) -> Optional[str]:
    if not game.errors:
        return None
    error = game.errors[0]
    text = str(error)
    if not isinstance(error, _BadMove):   # a bad FEN tag, a broken variant header ...
        text = text.split(" while parsing ")[0]
    return text
