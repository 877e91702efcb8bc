"""PGN output: each finished game is written whole and flushed at once,
so the file stays a valid PGN whenever the match stops (Ctrl-C included)."""
import socket
from dataclasses import dataclass
from typing import Optional, TextIO

import chess
import chess.pgn

from .game import GameRecord


@dataclass
class GameLabels:
    """What the runner knows about a game that the game itself does not."""
    event: str
    round: str           # "PAIR.GAME", e.g. "7.2": the 2nd game of opening pair 7
    white: str
    black: str
    white_limit: str
    black_limit: str


def build_pgn(record: GameRecord, labels: GameLabels) -> chess.pgn.Game:
    game = chess.pgn.Game()
    h = game.headers
    h["Event"] = labels.event
    h["Site"] = socket.gethostname() or "?"
    h["Date"] = record.started.strftime("%Y.%m.%d")
    h["Round"] = labels.round
    h["White"] = labels.white
    h["Black"] = labels.black
    h["Result"] = record.result
    if record.opening.chess960:
        h["Variant"] = "Chess960"   # before the moves: python-chess then writes them on a Chess960 board
    if not record.opening.from_standard_start:
        h["SetUp"] = "1"
        h["FEN"] = record.opening.fen
    if labels.white_limit == labels.black_limit:
        h["TimeControl"] = labels.white_limit
    else:
        h["WhiteTimeControl"] = labels.white_limit
        h["BlackTimeControl"] = labels.black_limit
    h["Termination"] = record.termination
    h["PlyCount"] = str(len(record.opening.moves) + len(record.moves))
    if record.opening.label and (record.opening.moves or not record.opening.from_standard_start):
        h["Opening"] = record.opening.label

    node = game
    for move in record.opening.moves:
        node = node.add_variation(move)
    if record.opening.moves:
        node.comment = "book"
    for played in record.moves:
        node = node.add_variation(played.move, comment=played.comment)
    if record.reason:
        node.comment = f"{node.comment}, {record.reason}" if node.comment else record.reason
    return game


class PgnWriter:
    """Appends games to a file (or does nothing when there is no file)."""

    def __init__(self, path: Optional[str]):
        self.handle: Optional[TextIO] = open(path, "a", encoding="utf-8") if path else None

    def write(self, record: GameRecord, labels: GameLabels) -> None:
        if self.handle is None:
            return
        text = str(build_pgn(record, labels))
        self.handle.write(text + "\n\n")
        self.handle.flush()

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()
            self.handle = None
