"""The opening book and the Syzygy tables behind the UCI options, opened on demand.

Each slot opens its resource when an option names it (or at the first `go`
that needs it), reports problems once as `info string`, and keeps serving
without it: a missing book or table never stops the engine from playing.
"""
from __future__ import annotations

from typing import Callable, Optional

Say = Callable[[str], None]


class BookSlot:
    def __init__(self, say: Say):
        self._say = say
        self._path_option: Optional[str] = None
        self._book = None
        self._failed = False

    def get(self, path_option: str, depth: int):
        """The open OpeningBook for the BookFile option value, or None if it cannot be used."""
        if path_option != self._path_option:
            self.close()
            self._path_option = path_option
            try:
                from ..book.probe import BookError, OpeningBook, resolve_book_path
            except ImportError as exc:
                self._failed = True
                self._say(f"error: opening books unavailable ({exc})")
                return None
            try:
                self._book = OpeningBook.open(resolve_book_path(path_option))
                self._say(f"opening book {self._book.path} ({len(self._book)} entries)")
            except BookError as exc:
                self._failed = True
                self._say(f"{exc}; playing without a book")
        if self._book is not None:
            self._book.max_plies = depth
        return self._book

    def close(self) -> None:
        if self._book is not None:
            self._book.close()
        self._book, self._path_option, self._failed = None, None, False


class TablebaseSlot:
    def __init__(self, say: Say):
        self._say = say
        self._path: Optional[str] = None
        self._tables = None

    def get(self, path: str):
        """The open Tablebases for the SyzygyPath option value, or None."""
        path = (path or "").strip()
        if path != self._path:
            self.close()
            self._path = path
            if not path:
                return None
            try:
                from ..syzygy.tables import TablebaseError, Tablebases
            except ImportError as exc:
                self._say(f"error: Syzygy tablebases unavailable ({exc})")
                return None
            try:
                self._tables = Tablebases.open(path)
            except TablebaseError as exc:
                self._say(f"{exc}; playing without tablebases")
                return None
            for warning in self._tables.warnings:
                self._say(warning)
            self._say(f"Syzygy: {self._tables.summary()}")
        return self._tables

    def close(self) -> None:
        if self._tables is not None:
            self._tables.close()
        self._tables, self._path = None, None
