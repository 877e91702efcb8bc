"""Building a Polyglot opening book from PGN games and from the lichess opening lists.

Weights (the same rule as Polyglot's own `make-book`, so books built from the
same PGN agree entry for entry, see tests/integrations/test_book_build.py):
  * every (position, move) pair scores, for the side that made the move,
    2 points per game won, 1 per game drawn, 0 per game lost; a game without
    a result ("*") counts as a draw. Weight = the sum over games, so it grows
    with frequency and with success.
  * a line of the lichess opening TSVs has no result: it counts as one drawn
    game, so its weights are plain frequencies (how many named lines pass
    through the move).
  * a pair is counted once per game even if a game repeats a position.
  * pairs that only lost (weight 0) or that occur in fewer than `min_games`
    games are left out; when a position's heaviest move exceeds the 16-bit
    field, that position's weights are scaled down in proportion (at least 1).

The file: 16-byte big-endian entries (key u64, move u16, weight u16, learn u32
= 0), one entry per (key, move), sorted by key, heaviest move first within a key.
"""
from __future__ import annotations

import os
import re
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Tuple

import chess
import chess.pgn
import chess.polyglot

MAX_WEIGHT = 0xFFFF
RESULT_POINTS = {  # points for (white, black) per game result
    "1-0": (2, 0),
    "0-1": (0, 2),
    "1/2-1/2": (1, 1),
    "*": (1, 1),
}
_MOVE_NUMBER = re.compile(r"^\d+\.+")


class BookBuildError(Exception):
    """An input or output problem that stops the build; the message says which file and why."""


def encode_move(board: chess.Board, move: chess.Move) -> int:
    """Polyglot's 16-bit move: to (bits 0-5), from (6-11), promotion piece (12-14).

    Castling is stored as the king taking its own rook (e1h1, e1a1, e8h8, e8a8),
    as the Polyglot format requires; promotions store knight=1 ... queen=4.
    """
    to_square = move.to_square
    if board.is_castling(move) and not board.chess960:
        # python-chess gives standard castling as e1g1/e1c1; the rook sits on the h/a file.
        rook_file = 7 if chess.square_file(move.to_square) > chess.square_file(move.from_square) else 0
        to_square = chess.square(rook_file, chess.square_rank(move.from_square))
    promotion = move.promotion - 1 if move.promotion else 0
    return (promotion << 12) | (move.from_square << 6) | to_square


class _MainLine(chess.pgn.BaseVisitor):
    """Collects a game's main line without building the move tree (much faster than GameBuilder)."""

    def begin_game(self):
        self.headers: Dict[str, str] = {}
        self.start: Optional[chess.Board] = None
        self.moves: List[chess.Move] = []
        self.errors: List[Exception] = []

    def visit_header(self, tagname, tagvalue):
        self.headers[tagname] = tagvalue

    def begin_variation(self):
        return chess.pgn.SKIP

    def visit_move(self, board, move):
        if self.start is None:
            self.start = board.copy(stack=False)
        self.moves.append(move)

    def handle_error(self, error):
        self.errors.append(error)

    def result(self):
        return self


class BookBuilder:
    """Accumulates games and lines, then writes the book. Not thread-safe."""

    def __init__(self, max_plies: Optional[int] = None, min_games: int = 1):
        if max_plies is not None and max_plies < 1:
            raise ValueError("max_plies must be at least 1")
        if min_games < 1:
            raise ValueError("min_games must be at least 1")
        self.max_plies = max_plies
        self.min_games = min_games
        # key -> raw move -> [games, points]
        self._stats: Dict[int, Dict[int, List[int]]] = defaultdict(dict)
        self.fens: Dict[int, str] = {}  # key -> the first position seen with it (for verify.py's search)
        self.lines_added = 0
        self.problems: List[str] = []  # lines/games skipped, with the reason

    # -- input -------------------------------------------------------------

    def add_line(self, start: chess.Board, moves: Iterable[chess.Move], result: str = "*") -> None:
        """Count one game (or opening line) played from `start`; `result` is a PGN result token."""
        points = RESULT_POINTS.get(result, RESULT_POINTS["*"])
        board = start.copy(stack=False)
        seen = set()
        for ply, move in enumerate(moves):
            if self.max_plies is not None and ply >= self.max_plies:
                break
            key = chess.polyglot.zobrist_hash(board)
            raw = encode_move(board, move)
            self.fens.setdefault(key, board.fen())
            if (key, raw) not in seen:
                seen.add((key, raw))
                stat = self._stats[key].setdefault(raw, [0, 0])
                stat[0] += 1
                stat[1] += points[0] if board.turn == chess.WHITE else points[1]
            board.push(move)
        self.lines_added += 1

    def add_pgn(self, path: str) -> int:
        """Add every game of a PGN file (main lines only); return how many were added."""
        added = 0
        with _open_text(path) as handle:
            index = 0
            while True:
                try:
                    game = chess.pgn.read_game(handle, Visitor=_MainLine)
                except (ValueError, UnicodeDecodeError) as exc:  # unreadable rest of file
                    self.problems.append(f"{path}: stopped reading after game {index}: {exc}")
                    break
                if game is None:
                    break
                index += 1
                variant = game.headers.get("Variant", "standard").lower()
                if variant not in ("standard", "chess", "normal", "chess960", "fischerandom"):
                    self.problems.append(f"{path}: game {index}: skipped, variant {variant!r}")
                elif game.errors:
                    self.problems.append(f"{path}: game {index}: skipped, {game.errors[0]}")
                elif game.moves:
                    self.add_line(game.start, game.moves, game.headers.get("Result", "*"))
                    added += 1
        return added

    def add_tsv(self, path: str) -> int:
        """Add the lines of a lichess chess-openings TSV (columns eco, name, pgn)."""
        added = 0
        seen_lines = set()  # the same move sequence under two names counts once
        with _open_text(path) as handle:
            header = handle.readline().rstrip("\r\n").split("\t")
            if "pgn" not in header:
                raise BookBuildError(f"{path}: not an opening list: the header must have a 'pgn' column "
                                     f"(got {header!r})")
            column = header.index("pgn")
            for number, line in enumerate(handle, start=2):
                fields = line.rstrip("\r\n").split("\t")
                if not line.strip():
                    continue
                if len(fields) <= column:
                    self.problems.append(f"{path}:{number}: skipped, no pgn column")
                    continue
                try:
                    moves = parse_movetext(fields[column])
                except ValueError as exc:
                    self.problems.append(f"{path}:{number}: skipped, {exc}")
                    continue
                signature = tuple(moves)
                if moves and signature not in seen_lines:
                    seen_lines.add(signature)
                    self.add_line(chess.Board(), moves, "*")
                    added += 1
        return added

    # -- output ------------------------------------------------------------

    def entries(self) -> List[Tuple[int, int, int]]:
        """(key, raw move, weight) triples in file order."""
        out: List[Tuple[int, int, int]] = []
        for key in sorted(self._stats):
            kept = [(raw, games, points) for raw, (games, points) in self._stats[key].items()
                    if games >= self.min_games and points > 0]
            if not kept:
                continue
            heaviest = max(points for _, _, points in kept)
            scale = min(1.0, MAX_WEIGHT / heaviest)
            weighted = [(raw, max(1, int(points * scale))) for raw, _, points in kept]
            weighted.sort(key=lambda rw: (-rw[1], rw[0]))
            out.extend((key, raw, weight) for raw, weight in weighted)
        return out

    def write(self, path: str, entries: Optional[List[Tuple[int, int, int]]] = None) -> int:
        """Write the book (atomically: a half-written book never replaces a good one); return the entry count.

        `entries` (key, raw move, weight) replace the counted ones, e.g. after verify.py's search."""
        entries = self.entries() if entries is None else entries
        data = b"".join(chess.polyglot.ENTRY_STRUCT.pack(key, raw, weight, 0) for key, raw, weight in entries)
        target = Path(path)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=str(target.parent))
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                os.chmod(tmp, 0o666 & ~_current_umask())  # mkstemp makes 0600; a book is for everyone to read
                os.replace(tmp, target)
            except BaseException:
                os.unlink(tmp)
                raise
        except OSError as exc:
            raise BookBuildError(f"cannot write {path}: {exc}") from exc
        return len(entries)


def parse_movetext(text: str, start: Optional[chess.Board] = None) -> List[chess.Move]:
    """SAN movetext with move numbers ("1. e4 e5 2. Nf3") -> moves; ValueError names the bad token."""
    board = (start or chess.Board()).copy(stack=False)
    moves = []
    for token in text.split():
        token = _MOVE_NUMBER.sub("", token)
        if not token or token in RESULT_POINTS:
            continue
        try:
            move = board.parse_san(token)
        except ValueError:
            raise ValueError(f"illegal or unreadable move {token!r} after {len(moves)} plies") from None
        moves.append(move)
        board.push(move)
    return moves


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _open_text(path: str):
    try:
        # utf-8-sig drops a BOM; "replace" keeps a stray byte in a comment from stopping the build.
        return open(path, encoding="utf-8-sig", errors="replace", newline=None)
    except OSError as exc:
        raise BookBuildError(f"cannot read {path}: {exc.strerror or exc}") from exc


def build_book(out_path: str, pgn_files: Iterable[str] = (), tsv_files: Iterable[str] = (),
               max_plies: Optional[int] = None, min_games: int = 1,
               judge: Optional[Callable] = None) -> Tuple[int, BookBuilder]:
    """Build a book from the given files; return (entries written, the builder for its statistics).

    `judge(builder) -> entries`, when given, decides the moves and weights (verify.py)."""
    builder = BookBuilder(max_plies=max_plies, min_games=min_games)
    for path in tsv_files:
        builder.add_tsv(path)
    for path in pgn_files:
        builder.add_pgn(path)
    return builder.write(out_path, judge(builder) if judge else None), builder
