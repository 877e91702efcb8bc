"""`genfens N seed S book <None|FILE> [extra]`: opening positions for
OpenBench's DATAGEN workloads.

OpenBench's client runs `ENGINE "genfens N seed S book B EXTRA" "quit"`
(Client/genfens.py) on several processes with different seeds, keeps every
stdout line `info string genfens <FEN>`, and plays its games from those
positions. The positions are made as `vireo datagen` makes its starts
(tools/nnue/datagen/starts.py): the start position, or half of the time a
line of the book when one is given, then random legal moves. A start is
kept only when it is not decided: the game is not over and a short search
(`nodes`, with the engine's default evaluation) scores it within
`maxscore` centipawns, as datagen runs keep only games worth learning from.
The same N, seed, book and extra give the same positions. A book is an EPD
file, or a PGN file whose games' last positions are the lines.

EXTRA, all optional, as `key value` pairs:
  plies P      random moves from the start position (default 8; at most 4
               after a book line, as datagen)
  maxscore CP  largest |score| of the check search (default 300)
  nodes N      nodes of the check search (default 2000)
Bad arguments print `info string genfens: error: ...` and exit with status 2.
"""
from __future__ import annotations

import argparse
import random
import sys
from typing import Dict, Iterator, List

import chess
import chess.engine
import chess.pgn

from .nnue.datagen.starts import StartSettings, StartsError, read_openings, start_board

DEFAULTS = {"plies": 8, "maxscore": 300, "nodes": 2000}
LIMITS = {"plies": (0, 40), "maxscore": (0, 30000), "nodes": (1, 10_000_000)}
MAX_POSITIONS = 1_000_000
ATTEMPTS_PER_POSITION = 200   # random lines that end the game or score decided are tried again


class GenfensError(ValueError):
    """Arguments that cannot be used; the message says which."""


def add_arguments(parser) -> None:
    parser.add_argument("words", nargs=argparse.REMAINDER,
                        help="N seed S book <None|FILE> [plies P] [maxscore CP] [nodes N]")


def parse_request(words: List[str]) -> Dict:
    """The words after `genfens` as a dict; GenfensError names what is wrong."""
    if len(words) < 5 or words[1] != "seed" or words[3] != "book":
        raise GenfensError("expected: genfens N seed S book <None|FILE> [plies P] [maxscore CP] [nodes N]")
    request = {"count": _integer("N", words[0], 1, MAX_POSITIONS),
               "seed": _integer("seed", words[2], -(1 << 63), (1 << 63) - 1),
               "book": None if words[4].lower() == "none" else words[4]}
    request.update(DEFAULTS)
    extra = words[5:]
    if len(extra) % 2:
        raise GenfensError(f"extra arguments come as key value pairs, not {' '.join(extra)!r}")
    for key, value in zip(extra[::2], extra[1::2]):
        if key not in DEFAULTS:
            raise GenfensError(f"unknown extra argument {key!r} (known: {', '.join(DEFAULTS)})")
        request[key] = _integer(key, value, *LIMITS[key])
    return request


def _integer(name: str, text: str, low: int, high: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise GenfensError(f"{name} must be an integer, not {text!r}") from None
    if not low <= value <= high:
        raise GenfensError(f"{name} must be from {low} to {high}, not {value}")
    return value


def generate(request: Dict, engine) -> Iterator[str]:
    """FENs of request['count'] undecided starts; engine: an engine.api.Engine."""
    openings = tuple(book_positions(request["book"])) if request["book"] else ()
    settings = StartSettings(openings=openings, random_plies=request["plies"],
                             opening_random_plies=min(request["plies"], StartSettings.opening_random_plies))
    rng = random.Random(request["seed"])
    seen = set()
    for _ in range(request["count"]):
        for _attempt in range(ATTEMPTS_PER_POSITION):
            board = start_board(settings, rng)
            if board is None or board.fen() in seen:
                continue
            if _undecided(board, engine, request):
                seen.add(board.fen())
                yield board.fen()
                break
        else:
            raise GenfensError(f"no undecided start found in {ATTEMPTS_PER_POSITION} tries "
                               f"(plies {request['plies']}, maxscore {request['maxscore']})")


def book_positions(path: str) -> List[str]:
    """FENs of an OpenBench book: EPD lines, or for a .pgn book (Pohl.pgn)
    the position at the end of each game, where fastchess starts from it."""
    if not path.lower().endswith(".pgn"):
        return read_openings([path])
    try:
        with open(path, errors="replace") as handle:
            fens = []
            while (game := chess.pgn.read_game(handle)) is not None:
                board = game.end().board()
                if not game.errors and board.is_valid() and not board.is_game_over():
                    fens.append(board.fen())
    except OSError as exc:
        raise StartsError(f"cannot read opening file {path}: {exc.strerror or exc}") from None
    if not fens:
        raise StartsError(f"opening file {path} holds no playable game")
    return fens


def _undecided(board: chess.Board, engine, request: Dict) -> bool:
    """Whether a short search scores the start within maxscore (not a mate);
    a start with no legal move never is. The search sees the start without
    the random moves that led to it, as a game from it will."""
    if not any(board.legal_moves):
        return False
    engine.clear_hash()   # the verdict on a position must not depend on the ones before it
    start = chess.Board(board.fen(), chess960=board.chess960)
    score = engine.analyse(start, chess.engine.Limit(nodes=request["nodes"]))["score"].relative
    return not score.is_mate() and abs(score.score()) <= request["maxscore"]


def make_engine():
    """Vireo as it evaluates by default (the shipped network), book off."""
    from engine.api import Engine

    return Engine(Hash=16, OwnBook=False)


def say(text: str) -> None:
    # Flushed line by line: OpenBench reads the positions as they come.
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def run(args) -> int:
    try:
        request = parse_request(list(args.words))
        with make_engine() as engine:
            for fen in generate(request, engine):
                say(f"info string genfens {fen}")
    except (ValueError, MemoryError) as exc:   # GenfensError, StartsError, a network that cannot load
        say(f"info string genfens: error: {exc}")
        return 2
    return 0

