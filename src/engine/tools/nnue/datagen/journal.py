"""The journal beside a datagen output file (`OUT.journal`): one line per
finished game, written after the game's records are on disk, so a killed run
knows exactly which games it has. The first line holds the run's settings; a
resume with other settings is refused (it would mix two runs).

    # vireo datagen <settings>
    <game index> <records> <result> <plies>

On opening, records past the journal's total (a game cut off mid-write) are
cut away; everything the journal names is kept.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Set

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
        self.records = 0
        self.stopped = False            # set by run() when interrupted
        self._load()
        self._data = open(self.output, "ab")
        self._lines = open(self.path, "a")
        if not self.done and self.path.stat().st_size == 0:
            self._append_line(self.header)

    def _load(self) -> None:
        if not self.path.exists():
            if self.output.exists() and self.output.stat().st_size:
                raise JournalError(f"{self.output} exists without {self.path.name}: not a resumable datagen output")
            self.output.write_bytes(b"")
            self.path.write_text("")
            return
        lines = self.path.read_text().split("\n")
        complete = lines[:-1]           # a last line without its newline was cut off
        if complete and complete[0] != self.header:
            raise JournalError(f"{self.path} was written with other settings:\n  {complete[0]}\n"
                               f"this run has:\n  {self.header}")
        for number, line in enumerate(complete[1:], 2):
            try:
                game, records, _result, _plies = (int(x) for x in line.split())
            except ValueError:
                raise JournalError(f"{self.path}:{number}: unreadable line {line!r}") from None
            self.done.add(game)
            self.records += records
        if lines[-1]:
            self.path.write_text("".join(line + "\n" for line in complete))
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

    def append(self, game: int, records, result: int, plies: int) -> None:
        # Ctrl-C or SIGTERM waits until the game is on disk, in the journal and
        # counted: the summary a stopped run prints then matches its files.
        with stops_held():
            self._data.write(b"".join(records))
            self._data.flush()
            os.fsync(self._data.fileno())
            self._append_line(f"{game} {len(records)} {result} {plies}")
            self.done.add(game)
            self.records += len(records)

    def close(self) -> None:
        self._data.close()
        self._lines.close()
