"""data/selfplay/MANIFEST.tsv: one row per kept game file.

    file  generation  network_sha256  seed  games  moves  positions  sha256  command

file is a name inside the manifest's folder; generation the network
generation that played (the network file that searched, by its SHA-256,
or "-" for the hand-written evaluation); seed datagen's --seed; games,
moves and positions the file's counts (positions: what the trainer reads);
sha256 the file's; command the exact command that made it. Tab-separated,
a header line first, rows sorted by file name.
"""
from __future__ import annotations

from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import List

from .expand import expand_game
from .files import SUFFIX, count, read_bytes, sha256
from .layout import GameFormatError, iter_games

NAME = "MANIFEST.tsv"


class ManifestError(ValueError):
    """A manifest that cannot be read or a row that cannot be made."""


@dataclass
class Row:
    file: str
    generation: str
    network_sha256: str
    seed: str
    games: int
    moves: int
    positions: int
    sha256: str
    command: str


COLUMNS = [f.name for f in fields(Row)]


def read_manifest(folder) -> List[Row]:
    path = Path(folder) / NAME
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    if not lines or lines[0].split("\t") != COLUMNS:
        raise ManifestError(f"{path}: the first line must be the header {' '.join(COLUMNS)}")
    rows = []
    for number, line in enumerate(lines[1:], 2):
        cells = line.split("\t")
        if len(cells) != len(COLUMNS):
            raise ManifestError(f"{path}:{number}: {len(cells)} cells, expected {len(COLUMNS)}")
        try:
            cells[4:7] = (int(c) for c in cells[4:7])
        except ValueError:
            raise ManifestError(f"{path}:{number}: games, moves and positions must be numbers") from None
        rows.append(Row(*cells))
    return rows


def write_manifest(folder, rows: List[Row]) -> None:
    lines = ["\t".join(COLUMNS)]
    for row in sorted(rows, key=lambda r: r.file):
        cells = [str(c) for c in astuple(row)]
        if any("\t" in c or "\n" in c for c in cells):
            raise ManifestError(f"{row.file}: a cell holds a tab or a newline")
        lines.append("\t".join(cells))
    (Path(folder) / NAME).write_text("\n".join(lines) + "\n")


def make_row(path, generation: str, network_sha256: str, seed: str, command: str) -> Row:
    counts = count(read_bytes(path), str(path))
    return Row(Path(path).name, generation, network_sha256, seed, counts.games, counts.moves,
               counts.positions, sha256(path), command)


def check(folder, expand: int = 0) -> List[str]:
    """What is wrong with the folder against its manifest (empty: all agree).
    expand > 0 also replays that many games of each file through the filter."""
    folder = Path(folder)
    problems = []
    rows = read_manifest(folder)
    listed = {row.file for row in rows}
    for path in sorted(folder.glob("*" + SUFFIX)):
        if path.name not in listed:
            problems.append(f"{path.name}: not in {NAME}")
    for row in rows:
        path = folder / row.file
        if not path.is_file():
            problems.append(f"{row.file}: listed but missing")
            continue
        if sha256(path) != row.sha256:
            problems.append(f"{row.file}: SHA-256 {sha256(path)}, the manifest says {row.sha256}")
            continue
        try:
            raw = read_bytes(path)
            found = count(raw, row.file)
            for number, game in enumerate(iter_games(raw, row.file)):
                if number >= expand:
                    break
                expand_game(game, number, row.file)
        except GameFormatError as exc:
            problems.append(str(exc))
            continue
        for name in ("games", "moves", "positions"):
            if getattr(found, name) != getattr(row, name):
                problems.append(f"{row.file}: {getattr(found, name)} {name}, the manifest says {getattr(row, name)}")
    return problems
