"""PGN games -> kept games (`vireo datagen OUT.games.xz --from-pgn IN.pgn ...`).

For games played by fastchess (an OpenBench DATAGEN workload), cutechess-cli
or `vireo match`, which put the mover's search score first in each move's
comment: `{+0.31/14 0.260s}`, `{-M5/9 0.1s}`, `{+1.05/12 0.2s, White wins by
adjudication}`. The score is the mover's, in pawns, or M<n> / -M<n> for a
mate in n moves; it is stored from white's point of view in centipawns, a
mate as 32000 - (plies to mate) (datagen's convention), beyond the filter's
bound. A move whose comment holds no score (`{book}`, none at all) is kept
with NO_SCORE, so that the game replays whole, and the filter never trains
on it.

Starts: the standard position, or the FEN header (with SetUp "1"); Variant
"Chess960" (or "fischerandom") plays Chess960 castling. Results: 1-0, 0-1,
1/2-1/2; a game with "*" (unfinished) or with moves python-chess cannot
read is skipped and counted. Input may be plain, .gz or .xz.
"""
from __future__ import annotations

import gzip
import io
import lzma
import re
from dataclasses import dataclass
from typing import Iterable, List, Optional, TextIO

import chess
import chess.pgn

from ..marlinformat import BLACK_WIN, DRAW, WHITE_WIN
from .expand import count_kept
from .layout import NO_SCORE, Game, encode_game

RESULTS = {"1-0": WHITE_WIN, "0-1": BLACK_WIN, "1/2-1/2": DRAW}
MATE = 32000
SCORE = re.compile(r"^\s*([+-]?)(?:M(\d+)|(\d+(?:\.\d+)?))(?:/\d+)?(?=[\s,]|$)")


class PgnImportError(ValueError):
    """A PGN file that cannot be read; the message names it."""


@dataclass
class ImportCounts:
    games: int = 0
    moves: int = 0
    scored: int = 0
    positions: int = 0
    skipped: int = 0


def mover_score(comment: str) -> Optional[int]:
    """The mover's score in centipawns from a move comment, None when it has none."""
    found = SCORE.match(comment or "")
    if not found:
        return None
    sign = -1 if found.group(1) == "-" else 1
    if found.group(2) is not None:
        moves = int(found.group(2))
        return sign * (MATE - (2 * moves - 1)) if sign > 0 else -(MATE - 2 * moves)
    return sign * round(float(found.group(3)) * 100)


def open_pgn(path) -> TextIO:
    name = str(path)
    try:
        if name.endswith(".gz"):
            return gzip.open(name, "rt", errors="replace")
        if name.endswith(".xz"):
            return lzma.open(name, "rt", errors="replace")
        return open(name, errors="replace")
    except OSError as exc:
        raise PgnImportError(f"cannot read {name}: {exc.strerror or exc}") from None


def kept_game(pgn: chess.pgn.Game, skip_plies: int) -> Optional[Game]:
    """The game in the kept form, or None when it cannot be used."""
    result = RESULTS.get(pgn.headers.get("Result", "*"))
    if result is None or pgn.errors:
        return None
    try:
        board = pgn.board()
    except ValueError:
        return None
    game = Game(board.copy(stack=False), result=result, skip_plies=min(skip_plies, 255))
    for node in pgn.mainline():
        if node.move is None or not board.is_legal(node.move):
            return None
        score = mover_score(node.comment)
        game.moves.append(node.move)
        game.scores.append(NO_SCORE if score is None else score * (1 if board.turn else -1))
        board.push(node.move)
    if not game.moves:
        return None
    game.positions = count_kept(game)
    return game


def import_pgn(paths: Iterable[str], skip_plies: int) -> tuple:
    """(the kept games' bytes, ImportCounts)."""
    counts = ImportCounts()
    parts: List[bytes] = []
    for path in paths:
        with open_pgn(path) as handle:
            while True:
                try:
                    pgn = chess.pgn.read_game(handle)
                except (ValueError, EOFError, io.UnsupportedOperation, lzma.LZMAError, OSError) as exc:
                    raise PgnImportError(f"{path}: {exc}") from None
                if pgn is None:
                    break
                game = kept_game(pgn, skip_plies)
                if game is None:
                    counts.skipped += 1
                    continue
                parts.append(encode_game(game.start, game.moves, game.scores, game.result,
                                         game.skip_plies, game.positions))
                counts.games += 1
                counts.moves += len(game.moves)
                counts.scored += sum(s != NO_SCORE for s in game.scores)
                counts.positions += game.positions
    return b"".join(parts), counts
