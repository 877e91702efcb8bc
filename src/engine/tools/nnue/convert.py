"""Conversion between Marlinformat files and the text lines `FEN;cp;result` of
../shared/data/tuning (score and result from white's point of view, result
1.0 / 0.5 / 0.0), so that either kind of data feeds either tool.

`vireo datagen --convert IN OUT` picks the direction from the names: a file
ending in .txt or .txt.gz is text, anything else Marlinformat. A kept game
file (.games.xz) converts to the positions it trains on (games/expand.py),
as records or as text: the Marlinformat export of kept self-play.
"""
from __future__ import annotations

import gzip
from pathlib import Path
from typing import Iterator, TextIO

import chess

from .games.expand import expand_games
from .games.files import is_games_file, read_games
from .marlinformat import RECORD_SIZE, RESULT_TEXT, RecordError, decode, encode, result_code


class ConversionError(ValueError):
    """A line or record that cannot be converted; says which and why."""


def is_text(path) -> bool:
    name = str(path)
    return name.endswith(".txt") or name.endswith(".txt.gz")


def _open_text(path, mode) -> TextIO:
    return gzip.open(path, mode + "t") if str(path).endswith(".gz") else open(path, mode)


def line_to_record(line: str) -> bytes:
    fields = line.strip().split(";")
    if len(fields) != 3:
        raise ConversionError(f"expected FEN;score;result, got {line.strip()!r}")
    fen, score, result = fields
    try:
        board = chess.Board(fen.strip(), chess960=False)
        if not board.is_valid():
            board = chess.Board(fen.strip(), chess960=True)
        return encode(board, int(score), result_code(result))
    except (ValueError, RecordError) as exc:
        raise ConversionError(f"{line.strip()!r}: {exc}") from None


def record_to_line(record: bytes) -> str:
    sample = decode(record)
    return f"{sample.board.fen()};{sample.score};{RESULT_TEXT[sample.result]}"


def read_records(path) -> Iterator[bytes]:
    size = Path(path).stat().st_size
    if size % RECORD_SIZE:
        raise ConversionError(f"{path}: {size} bytes is not a whole number of {RECORD_SIZE}-byte records")
    with open(path, "rb") as handle:
        while chunk := handle.read(RECORD_SIZE):
            yield chunk


def convert(source, target) -> int:
    """Converts source to target (directions by file name); returns the count."""
    count = 0
    if is_games_file(target):
        raise ConversionError("kept games are written by vireo datagen (self-play or --from-pgn), "
                              "not converted from positions")
    if is_games_file(source):
        with (_open_text(target, "w") if is_text(target) else open(target, "wb")) as dst:
            for record in expand_games(read_games(source), str(source)):
                dst.write(record_to_line(record) + "\n" if is_text(target) else record)
                count += 1
        return count
    if is_text(source) == is_text(target):
        raise ConversionError("one file must be text (.txt, .txt.gz) and the other Marlinformat")
    if is_text(source):
        with _open_text(source, "r") as src, open(target, "wb") as dst:
            for number, line in enumerate(src, 1):
                if line.strip():
                    try:
                        dst.write(line_to_record(line))
                    except ConversionError as exc:
                        raise ConversionError(f"{source}:{number}: {exc}") from None
                    count += 1
    else:
        with _open_text(target, "w") as dst:
            for number, record in enumerate(read_records(source)):
                try:
                    dst.write(record_to_line(record) + "\n")
                except RecordError as exc:
                    raise ConversionError(f"{source}: record {number}: {exc}") from None
                count += 1
    return count
