"""Playing moves from a Polyglot opening book.

The engine's Zobrist key equals the Polyglot key (chess.polyglot.zobrist_hash),
so looking a position up by board or by key is the same thing; lookups go
through chess.polyglot, which decodes castling (stored as king-takes-rook,
e1h1) and promotions for us.

Typical use from the UCI layer:

    try:
        book = OpeningBook.open(resolve_book_path(book_file_option), max_plies=book_depth)
    except BookError as exc:
        send(f"info string {exc}")        # and play on without a book
    ...
    move = book.pick(board, mode="best")  # None: out of book, search normally
"""
from __future__ import annotations

import os
import random
import sys
from array import array
from pathlib import Path
from typing import List, NamedTuple, Optional, Union

import chess
import chess.polyglot

# The book shipped inside the package (built from the CC0 lichess opening
# names, see books/README.md). This is what an installed engine opens when
# the BookFile option is empty.
DEFAULT_BOOK_PATH = Path(__file__).resolve().parents[1] / "data" / "vireo.bin"

ENTRY_SIZE = chess.polyglot.ENTRY_STRUCT.size  # 16 bytes: key u64, move u16, weight u16, learn u32
BOOK_MODES = ("best", "weighted")

# Only the key column matters for the sortedness check. It is read as an
# array of 64-bit words (every other one a key) and checked by sorted(), whose
# run detection makes a sorted column one C pass: a book of a million entries
# opens in some 0.1 s. No numpy here: the UCI loop imports this module, and
# numpy refuses CPUs below x86-64-v2 that the engine itself runs on.


class BookError(Exception):
    """The book cannot be used (missing, unreadable or corrupt); the message says why."""


class BookMove(NamedTuple):
    move: chess.Move
    weight: int


def resolve_book_path(option_value: Optional[str]) -> Path:
    """The path a BookFile option names; empty (or UCI's "<empty>") means the shipped book."""
    value = (option_value or "").strip()
    if value in ("", "<empty>"):
        return DEFAULT_BOOK_PATH
    return Path(os.path.expanduser(value))


class OpeningBook:
    """An opened, validated Polyglot book. Use OpeningBook.open(path)."""

    def __init__(self, path: Path, reader: chess.polyglot.MemoryMappedReader,
                 max_plies: Optional[int] = None):
        self.path = path
        self._reader = reader
        # Book moves are played only while board.ply() < max_plies (None: no limit).
        self.max_plies = max_plies

    @classmethod
    def open(cls, path: Union[str, os.PathLike, None] = None, *,
             max_plies: Optional[int] = None) -> "OpeningBook":
        """Open and check a book; raise BookError with a clear message when it is unusable."""
        path = DEFAULT_BOOK_PATH if path is None else Path(path)
        if not path.exists():
            raise BookError(f"opening book not found: {path}")
        if not path.is_file():
            raise BookError(f"opening book is not a file: {path}")
        try:
            size = path.stat().st_size
            if size % ENTRY_SIZE:
                raise BookError(f"opening book is corrupt: {path} has {size} bytes, "
                                f"not a multiple of {ENTRY_SIZE} (Polyglot entries are {ENTRY_SIZE} bytes)")
            if size == 0:
                raise BookError(f"opening book is empty: {path}")
            reader = chess.polyglot.MemoryMappedReader(str(path))
        except BookError:
            raise
        except (OSError, ValueError) as exc:
            raise BookError(f"cannot read opening book {path}: {exc}") from exc
        try:
            _check_sorted(reader, path)
        except BookError:
            reader.close()
            raise
        return cls(path, reader, max_plies)

    def __len__(self) -> int:
        return len(self._reader)

    def __enter__(self) -> "OpeningBook":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._reader.close()

    def in_depth(self, board: chess.Board) -> bool:
        """True while the game is still shallow enough to use the book."""
        return self.max_plies is None or board.ply() < self.max_plies

    def moves(self, board: chess.Board) -> List[BookMove]:
        """The book's legal moves for this position, heaviest first (ignores max_plies).

        Entries of weight 0 (Polyglot's way to delete an entry) and entries whose
        move is illegal here (a key collision or a damaged book) are skipped.
        """
        found = [BookMove(e.move, e.weight) for e in self._reader.find_all(board, minimum_weight=1)]
        # Stable sort keeps file order among equal weights, so "best" is deterministic.
        found.sort(key=lambda m: -m.weight)
        return found

    def pick(self, board: chess.Board, mode: str = "best",
             rng: Optional[random.Random] = None) -> Optional[chess.Move]:
        """A book move for this position, or None (out of book or past max_plies).

        mode "best": the heaviest move (first in the file among equal weights).
        mode "weighted": a random move, each chosen with probability weight / total.
        rng: a random.Random for reproducible choices (default: the random module).
        """
        if mode not in BOOK_MODES:
            raise ValueError(f"book mode must be one of {BOOK_MODES}, not {mode!r}")
        if not self.in_depth(board):
            return None
        candidates = self.moves(board)
        if not candidates:
            return None
        if mode == "best":
            return candidates[0].move
        total = sum(c.weight for c in candidates)
        ticket = (rng or random).randrange(total)
        for candidate in candidates:
            ticket -= candidate.weight
            if ticket < 0:
                return candidate.move
        return candidates[-1].move  # not reached: the tickets add up to total


def _check_sorted(reader: chess.polyglot.MemoryMappedReader, path: Path) -> None:
    """Polyglot lookups are binary searches: an unsorted book silently misses moves."""
    words = array("Q")
    words.frombytes(reader.mmap[:len(reader.mmap) - len(reader.mmap) % 8])
    if sys.byteorder == "little":
        words.byteswap()             # Polyglot keys are big-endian
    keys = words[0::2]
    if sorted(keys) == keys.tolist():
        return
    first = next(i for i in range(1, len(keys)) if keys[i] < keys[i - 1])
    raise BookError(f"opening book is corrupt: {path} is not sorted by key "
                    f"(entry {first} has a smaller key than the one before)")
