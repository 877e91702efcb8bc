"""Where a self-play game begins: the start position, a line of an opening
file (EPD/FEN, one position a line), or a Chess960 start, followed by a few
random legal moves so that no two games repeat."""
from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional, Sequence

import chess


class StartsError(ValueError):
    """An opening file that cannot be used; the message names it."""


@dataclass(frozen=True)
class StartSettings:
    openings: Sequence[str] = ()     # FENs read from the opening files
    chess960: bool = False
    random_plies: int = 8            # random moves from the start position / a Chess960 start
    opening_random_plies: int = 4    # random moves after an opening line (already varied)


def read_openings(paths: Sequence[str]) -> List[str]:
    """FENs of EPD/FEN files (first four or six fields of each line)."""
    fens: List[str] = []
    for path in paths:
        try:
            lines = Path(path).read_text().splitlines()
        except OSError as exc:
            raise StartsError(f"cannot read opening file {path}: {exc.strerror or exc}") from None
        for number, line in enumerate(lines, 1):
            fields = line.split(";")[0].split()
            if not fields:
                continue
            fen = " ".join(fields[:6]) if len(fields) >= 6 and fields[4].isdigit() else " ".join(fields[:4])
            try:
                board = chess.Board(fen, chess960=True)
            except ValueError as exc:
                raise StartsError(f"{path}:{number}: not a position ({exc})") from None
            if not board.is_valid() or board.is_game_over():
                raise StartsError(f"{path}:{number}: not a playable position")
            fens.append(board.fen())
        if not fens:
            raise StartsError(f"opening file {path} holds no position")
    return fens


def start_board(settings: StartSettings, rng: random.Random) -> Optional[chess.Board]:
    """A varied start, or None when the random moves ran into a game end (pick again)."""
    if settings.chess960:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        plies = settings.random_plies
    elif settings.openings and rng.random() < 0.5:
        board = chess.Board(rng.choice(settings.openings), chess960=True)
        plies = settings.opening_random_plies
    else:
        board = chess.Board()
        plies = settings.random_plies
    if not settings.chess960 and board.chess960:
        # standard castling rights: play it as standard chess (UCI castling e1g1)
        standard = board.copy(stack=False)
        standard.chess960 = False
        board.chess960 = standard.clean_castling_rights() != board.clean_castling_rights()
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            return None
        board.push(rng.choice(moves))
    return None if board.is_game_over() else board
