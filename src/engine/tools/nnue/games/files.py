"""Kept game files: `NAME.games.xz`, xz-compressed games (layout.py).

A file may be several xz streams one after another (datagen appends one per
flush, journal.py); lzma reads them as one. Counting a file's games, moves
and positions needs no replay: games end in a zero word, every field is
4-byte aligned, and each start holds its position count.
"""
from __future__ import annotations

import hashlib
import lzma
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import numpy as np

from .layout import START_SIZE, TAIL, Game, GameFormatError, iter_games

SUFFIX = ".games.xz"
XZ_PRESET = 9        # 64 MiB dictionary: datagen flushes about 16 MiB at a time


def is_games_file(path) -> bool:
    return str(path).endswith(SUFFIX)


def compress(raw: bytes) -> bytes:
    return lzma.compress(raw, format=lzma.FORMAT_XZ, preset=XZ_PRESET)


def read_bytes(path) -> bytes:
    """The decompressed games; an empty file (a run that has flushed nothing yet) holds none."""
    try:
        if Path(path).stat().st_size == 0:
            return b""
        with lzma.open(path, "rb") as handle:
            return handle.read()
    except FileNotFoundError:
        raise GameFormatError(f"{path}: no such file") from None
    except lzma.LZMAError as exc:
        raise GameFormatError(f"{path}: not an xz file ({exc})") from None
    except EOFError:
        raise GameFormatError(f"{path}: the xz data is cut off") from None


def read_games(path) -> Iterator[Game]:
    return iter_games(read_bytes(path), str(path))


def write_games(path, raw: bytes) -> None:
    """The whole file at once, through a temporary name: never half a file."""
    temporary = Path(str(path) + ".tmp")
    with open(temporary, "wb") as handle:
        handle.write(compress(raw))
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


@dataclass(frozen=True)
class Counts:
    games: int
    moves: int
    positions: int


def count(raw: bytes, name: str = "data") -> Counts:
    if len(raw) % 4:
        raise GameFormatError(f"{name}: {len(raw)} bytes is not whole games")
    words = np.frombuffer(raw, dtype="<u4")
    zeros = np.flatnonzero(words == 0)
    head_words = START_SIZE // 4
    offset, games, moves, positions = 0, 0, 0, 0
    while offset < len(words):
        at = np.searchsorted(zeros, offset + head_words)
        if at == len(zeros):
            raise GameFormatError(f"{name}: game {games} has no end marker")
        end = int(zeros[at])
        positions += TAIL.unpack_from(raw, 4 * offset + 28)[0]
        moves += end - offset - head_words
        games += 1
        offset = end + 1
    return Counts(games, moves, positions)


def sha256(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()
