"""Opening suites: positions (EPD/FEN lines) or move lines (PGN games).

An opening is kept as a start position plus moves, never flattened into a
FEN: engines that cannot set up a position (xboard setboard=0, Fairy-Max)
can then still play PGN openings, from the initial position, move by move.

Spec words (``--openings file=PATH ...``):
    file=PATH              the suite (required)
    format=epd|pgn         default: from the file name (.pgn, else epd)
    order=sequential|random
    plies=N                PGN: play only the first N plies of each game
    start=N                begin with the N-th opening (1-based)
"""
import io
import os
import random
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import chess
import chess.pgn


class OpeningError(ValueError):
    """An opening suite that cannot be read or used."""


@dataclass(frozen=True)
class Opening:
    fen: Optional[str]                 # None: the standard initial position
    moves: Tuple[chess.Move, ...] = ()
    label: str = ""
    chess960: bool = False             # castling rights read as Chess960 (X-FEN/Shredder-FEN)

    def board(self) -> chess.Board:
        board = chess.Board(self.fen or chess.STARTING_FEN, chess960=self.chess960)
        for move in self.moves:
            board.push(move)
        return board

    @property
    def from_standard_start(self) -> bool:
        return not self.chess960 and (self.fen is None or self.fen == chess.STARTING_FEN)


STANDARD_START = Opening(None, (), "start position")


@dataclass
class OpeningOptions:
    path: Optional[str] = None
    format: Optional[str] = None
    order: str = "sequential"
    plies: Optional[int] = None
    start: int = 1


def parse_options(words: Sequence[str]) -> OpeningOptions:
    options = OpeningOptions()
    for word in words:
        key, sep, value = word.partition("=")
        if not sep:
            raise OpeningError(f"expected KEY=VALUE in --openings, got {word!r}")
        if key == "file":
            options.path = value
        elif key == "format":
            if value not in ("epd", "pgn"):
                raise OpeningError(f"format= must be epd or pgn, not {value!r}")
            options.format = value
        elif key == "order":
            if value not in ("sequential", "random"):
                raise OpeningError(f"order= must be sequential or random, not {value!r}")
            options.order = value
        elif key in ("plies", "start"):
            if not value.isdigit() or int(value) < (0 if key == "plies" else 1):
                raise OpeningError(f"{key}= needs a whole number, not {value!r}")
            setattr(options, key, int(value))
        else:
            raise OpeningError(f"unknown --openings key {key!r} (known: file, format, order, plies, start)")
    if not options.path:
        raise OpeningError("--openings needs file=PATH")
    return options


def _read_text(path: str) -> str:
    try:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            return handle.read()
    except OSError as exc:
        raise OpeningError(f"cannot read opening file {path}: {exc.strerror or exc}") from None


def _epd_entries(text: str) -> List[Tuple[int, str]]:
    return [(number, line.strip()) for number, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.lstrip().startswith("#")]


def _epd_opening(path: str, number: int, line: str, chess960: bool = False) -> Opening:
    board = chess.Board(chess960=chess960)
    try:
        # A plain 6-field FEN or an EPD line with operations.
        fields = line.split()
        if len(fields) >= 6 and fields[4].isdigit() and fields[5].rstrip(";").isdigit():
            board.set_fen(" ".join(fields[:6]).rstrip(";"))
            ops = {}
        else:
            ops = board.set_epd(line)
    except ValueError as exc:
        raise OpeningError(f"{path}:{number}: bad EPD/FEN: {exc}") from None
    if not board.is_valid():
        raise OpeningError(f"{path}:{number}: impossible position {board.fen()}")
    label = str(ops.get("id", "")) or f"{os.path.basename(path)}:{number}"
    return Opening(board.fen(), (), label, chess960)


def _pgn_offsets(text: str) -> List[int]:
    stream = io.StringIO(text)
    offsets = []
    while True:
        offset = stream.tell()
        if not chess.pgn.skip_game(stream):
            return offsets
        offsets.append(offset)


def _pgn_opening(path: str, stream: io.StringIO, offset: int, plies: Optional[int], index: int,
                 chess960: bool = False) -> Opening:
    stream.seek(offset)
    game = chess.pgn.read_game(stream)
    if game is None:
        raise OpeningError(f"{path}: game #{index + 1} cannot be read")
    if game.errors:
        raise OpeningError(f"{path}: game #{index + 1}: {game.errors[0]}")
    board = game.board()
    moves = tuple(game.mainline_moves())
    if plies is not None:
        moves = moves[:plies]
    if chess960 and not board.chess960:   # a standard game in a Chess960 match: position 518
        moves = _as_chess960(board, moves)
    chess960 = chess960 or board.chess960
    fen = None if board.fen() == chess.STARTING_FEN and not chess960 else board.fen()
    label = f"{os.path.basename(path)} #{index + 1}"
    return Opening(fen, moves, label, chess960)


def _as_chess960(board: chess.Board, moves) -> Tuple[chess.Move, ...]:
    """Standard moves as a Chess960 board writes them: castling becomes king takes rook."""
    board, converted = board.copy(), []
    for move in moves:
        if board.is_castling(move):
            rook_file = 7 if chess.square_file(move.to_square) == 6 else 0
            converted.append(chess.Move(move.from_square, chess.square(rook_file, chess.square_rank(move.from_square))))
        else:
            converted.append(move)
        board.push(move)
    return tuple(converted)


class OpeningSuite:
    """Hands out openings in the chosen order, cycling when the suite ends.

    Only the openings actually used are parsed, so a 35,000-game book costs
    an index scan, not 35,000 game parses.
    """

    def __init__(self, options: OpeningOptions, seed: Optional[int] = None, chess960: bool = False):
        self.options = options
        self.chess960 = chess960
        text = _read_text(options.path)
        fmt = options.format or ("pgn" if options.path.lower().endswith(".pgn") else "epd")
        self.is_pgn = fmt == "pgn"
        self.stream = io.StringIO(text)
        self.entries = _pgn_offsets(text) if self.is_pgn else _epd_entries(text)
        if not self.entries:
            raise OpeningError(f"no openings in {options.path}")
        self.order = list(range(len(self.entries)))
        if options.order == "random":
            random.Random(seed).shuffle(self.order)
        self.position = (options.start - 1) % len(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def next(self) -> Opening:
        index = self.order[self.position % len(self.order)]
        self.position += 1
        if self.is_pgn:
            return _pgn_opening(self.options.path, self.stream, self.entries[index], self.options.plies, index,
                                self.chess960)
        number, line = self.entries[index]
        return _epd_opening(self.options.path, number, line, self.chess960)

    def skip(self) -> None:
        """Pass over the next opening without reading it (another shard plays it)."""
        self.position += 1

    def take(self, count: int) -> List[Opening]:
        return [self.next() for _ in range(count)]
