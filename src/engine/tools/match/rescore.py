"""Results of a match read back from its PGN files, e.g. the shards of a
match spread over several machines (see docs/distributed.md).

Games are paired again by their Round tag "PAIR.GAME", which the runner
writes with the pair's number in the whole match, not in one shard, and by
their Opening tag: runs of the same match with other --seed values (more
games added on another day or machine) number their pairs from 1 again but
play other openings, so their pairs stay apart, while a shard given twice
(same round, same opening) is still refused.
"""
from typing import Dict, Iterator, Optional, Sequence, Tuple

import chess.pgn

from ..textfile import READ_ERRORS, open_text
from .results import POINTS, Tally


class RescoreError(ValueError):
    """PGN files that do not make one match."""


def finished_games(paths: Sequence[str]) -> Iterator[Tuple[str, chess.pgn.Headers]]:
    """(path, headers) of every finished game in `paths`, in file order;
    unfinished games do not count. A name ending in .gz or .xz is read
    through that compression (the results kept in benchmarks/results/)."""
    for path in paths:
        try:
            handle = open_text(path, encoding="utf-8-sig")
        except OSError as exc:
            raise RescoreError(f"cannot read {path}: {exc.strerror or exc}") from None
        with handle:
            while True:
                try:
                    headers = chess.pgn.read_headers(handle)
                except READ_ERRORS as exc:
                    raise RescoreError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None
                if headers is None:
                    break
                if headers.get("Result", "*") in POINTS:
                    yield path, headers


def tally_from_pgn(paths: Sequence[str], first: Optional[str] = None) -> Tally:
    """Score every finished game of `paths` for `first` (default: White of the first game)."""
    tally: Optional[Tally] = None
    seen: Dict[Tuple[str, str], int] = {}
    for path, headers in finished_games(paths):
        white, black = headers.get("White", "?"), headers.get("Black", "?")
        if tally is None:
            name = first or white
            if name not in (white, black):
                raise RescoreError(f"{path}: {name!r} does not play {white} - {black}")
            tally = Tally(name, black if name == white else white)
        if {white, black} != {tally.first, tally.second}:
            raise RescoreError(f"{path}: game {white} - {black} is not between "
                               f"{tally.first} and {tally.second}")
        round_ = headers.get("Round", "?").split(".")[0]
        pair = (round_, headers.get("Opening", ""))
        seen[pair] = seen.get(pair, 0) + 1
        if round_ == "?" or seen[pair] > 2:
            raise RescoreError(f"{path}: round {headers.get('Round')!r} is not one game of a pair "
                               "(was a shard given twice?)")
        tally.add(pair, white == tally.first, headers["Result"], headers.get("Termination", "normal"))
    if tally is None:
        raise RescoreError("no finished games in " + ", ".join(paths))
    return tally
