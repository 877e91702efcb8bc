"""The journal beside a datagen output file (`OUT.journal`): one line per
finished game, written after the game's records are on disk, so a killed run
knows exactly which games it has. The first line holds the run's settings; a
resume with other settings is refused (it would mix two runs).

    # vireo datagen <settings>
    <game index> <records> <result> <plies>

On opening, records past the journal's total (a game cut off mid-write) are
cut away; everything the journal names is kept.

Kept game files (`OUT.games.xz`, GamesJournal): an xz stream cannot be
appended to game by game, so finished games go to a plain `OUT.games.xz.part`
first, and about every 16 MiB, and when the run ends or is stopped, the part
is compressed into one more xz stream at the end of OUT (lzma reads
concatenated streams as one), the line `flushed <bytes of OUT>` goes to the
journal and the part is emptied. A resume cuts OUT back to the last flushed
size and the part back to the games named after that line, so a kill at any
moment loses at most the games in progress.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import List, Set

from ..games.files import compress
from ..games.layout import packed_size
from ..marlinformat import RECORD_SIZE
from .stop_signals import stops_held


class JournalError(ValueError):
    """An output that cannot be resumed; the message says why."""


class Journal:
    def __init__(self, output: Path, settings: str):
        self.output = Path(output)
        self.path = Path(str(output) + ".journal")
        self.header = f"# vireo datagen {settings}"
        self.done: Set[int] = set()
        self.notes: List[str] = []      # the `# ...` lines after the settings
        self.records = 0
        self.stopped = False            # set by run() when interrupted
        self._load()
        self._data = open(self._data_path(), "ab")
        self._lines = open(self.path, "a")
        if not self.done and self.path.stat().st_size == 0:
            self._append_line(self.header)

    def _load(self) -> None:
        if not self.path.exists():
            if self.output.exists() and self.output.stat().st_size:
                raise JournalError(f"{self.output} exists without {self.path.name}: not a resumable datagen output")
            self._start_data()
            self.path.write_text("")
            return
        lines = self.path.read_text().split("\n")
        complete = lines[:-1]           # a last line without its newline was cut off
        if complete and complete[0] != self.header:
            raise JournalError(f"{self.path} was written with other settings:\n  {complete[0]}\n"
                               f"this run has:\n  {self.header}")
        for number, line in enumerate(complete[1:], 2):
            try:
                self._read_line(line)
            except ValueError:
                raise JournalError(f"{self.path}:{number}: unreadable line {line!r}") from None
        if lines[-1]:
            self.path.write_text("".join(line + "\n" for line in complete))
        self._recover_data()

    # -- the data file: Marlinformat records here, kept games in GamesJournal --

    def _data_path(self) -> Path:
        return self.output

    def _start_data(self) -> None:
        self.output.write_bytes(b"")

    def _read_line(self, line: str) -> int:
        """Takes in a journal line; returns the game's plies."""
        if line.startswith("# "):
            self.notes.append(line[2:])     # a comment: the command of a (re)start, the network
            return 0
        game, records, _result, plies = (int(x) for x in line.split())
        self.done.add(game)
        self.records += records
        return plies

    def _recover_data(self) -> None:
        size = self.output.stat().st_size if self.output.exists() else 0
        if size < self.records * RECORD_SIZE:
            raise JournalError(f"{self.output} holds {size} bytes, the journal names "
                               f"{self.records} records: the file was changed outside datagen")
        with open(self.output, "ab") as data:
            data.truncate(self.records * RECORD_SIZE)   # a game cut off mid-write

    def _append_line(self, line: str) -> None:
        self._lines.write(line + "\n")
        self._lines.flush()
        os.fsync(self._lines.fileno())

    def note(self, text: str) -> None:
        """A comment line (`# text`), e.g. the command line of a (re)start."""
        self._append_line("# " + " ".join(text.split()))

    def append(self, game: int, record) -> None:
        """record: a datagen GameRecord (records, packed, result, plies)."""
        # Ctrl-C or SIGTERM waits until the game is on disk, in the journal and
        # counted: the summary a stopped run prints then matches its files.
        with stops_held():
            self._data.write(self._game_bytes(record))
            self._data.flush()
            os.fsync(self._data.fileno())
            self._append_line(f"{game} {len(record.records)} {record.result} {record.plies}")
            self.done.add(game)
            self.records += len(record.records)

    def _game_bytes(self, record) -> bytes:
        return b"".join(record.records)

    def close(self) -> None:
        self._data.close()
        self._lines.close()


class GamesJournal(Journal):
    """The journal of a kept game file (OUT.games.xz), written through a plain part."""

    FLUSH_BYTES = 16 << 20

    def __init__(self, output: Path, settings: str, flush_bytes: int = FLUSH_BYTES):
        self.part = Path(str(output) + ".part")
        self.flush_bytes = flush_bytes
        self.flushed = 0        # bytes of OUT the journal vouches for
        self.part_size = 0      # bytes of the part the journal vouches for
        super().__init__(output, settings)

    def _data_path(self) -> Path:
        return self.part

    def _start_data(self) -> None:
        self.output.write_bytes(b"")
        self.part.write_bytes(b"")

    def _read_line(self, line: str) -> int:
        if line.startswith("flushed "):
            self.flushed, self.part_size = int(line.split()[1]), 0
            return 0
        plies = super()._read_line(line)
        if not line.startswith("# "):
            self.part_size += packed_size(plies)
        return plies

    def _recover_data(self) -> None:
        for path, size in ((self.output, self.flushed), (self.part, self.part_size)):
            found = path.stat().st_size if path.exists() else 0
            if found < size:
                raise JournalError(f"{path} holds {found} bytes, the journal names {size}: "
                                   f"the file was changed outside datagen")
            with open(path, "ab") as data:
                data.truncate(size)     # a stream or a game cut off mid-write

    def _game_bytes(self, record) -> bytes:
        return record.packed

    def append(self, game: int, record) -> None:
        super().append(game, record)
        self.part_size += len(record.packed)
        if self.part_size >= self.flush_bytes:
            self.flush()

    def flush(self) -> None:
        """The part becomes one more xz stream at the end of OUT."""
        with stops_held():
            self._data.close()
            raw = self.part.read_bytes()
            if raw:
                with open(self.output, "ab") as out:
                    out.write(compress(raw))
                    out.flush()
                    os.fsync(out.fileno())
                    self.flushed = out.tell()
                self._append_line(f"flushed {self.flushed}")
            with open(self.part, "ab") as part:
                part.truncate(0)
            self.part_size = 0
            self._data = open(self.part, "ab")

    def close(self) -> None:
        self.flush()
        super().close()
        self.part.unlink()
