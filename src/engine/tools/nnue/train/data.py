"""The training data: Marlinformat files read through numpy memory maps (no
copy in memory), split into training and validation, served in shuffled
batches. A kept game file (.games.xz) is read as the positions it trains on,
expanded once into a cache (games/cache.py).

The validation set is the last `validation` fraction of each file. Datagen
writes a game's positions together, so a tail split keeps whole games apart
(a random split would put neighbours of the same game on both sides and make
the validation loss look better than it is).
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator, List, Sequence

import numpy as np

from ..games.cache import expanded
from ..games.files import is_games_file
from ..games.layout import GameFormatError
from ..marlinformat import DTYPE, RECORD_SIZE


class DataError(ValueError):
    """Data the trainer cannot use; the message says which and why."""


def open_records(path) -> np.ndarray:
    name = path
    if is_games_file(path):
        try:
            path = expanded(path)
        except GameFormatError as exc:
            raise DataError(str(exc)) from None
        except OSError as exc:
            raise DataError(f"cannot read {exc.filename or path}: {exc.strerror or exc}") from None
    try:
        size = Path(path).stat().st_size
    except OSError as exc:
        raise DataError(f"cannot read {path}: {exc.strerror or exc}") from None
    if size % RECORD_SIZE:
        raise DataError(f"{path}: {size} bytes is not a whole number of {RECORD_SIZE}-byte records")
    if size == 0:
        raise DataError(f"{name} is empty" + (" (no position passes the filter)" if name != path else ""))
    return np.memmap(path, dtype=DTYPE, mode="r")


class Dataset:
    def __init__(self, paths: Sequence[str], validation: float):
        if not 0 <= validation < 1:
            raise DataError("the validation fraction must be in [0, 1)")
        self.files = [open_records(p) for p in paths]
        train: List[np.ndarray] = []
        valid: List[np.ndarray] = []
        for number, records in enumerate(self.files):
            cut = len(records) - int(round(len(records) * validation))
            index = np.stack([np.full(len(records), number), np.arange(len(records))], axis=1)
            train.append(index[:cut])
            valid.append(index[cut:])
        self.train = np.concatenate(train)
        self.valid = np.concatenate(valid)
        if not len(self.train):
            raise DataError("no training positions left after the validation split")

    def gather(self, index: np.ndarray) -> np.ndarray:
        out = np.empty(len(index), dtype=DTYPE)
        for number, records in enumerate(self.files):
            mine = index[:, 0] == number
            if mine.any():
                # sorted reads from the memory map, put back in the batch's order
                rows = index[mine, 1]
                order = np.argsort(rows)
                picked = np.empty(len(rows), dtype=DTYPE)
                picked[order] = records[rows[order]]
                out[mine] = picked
        return out

    def batches(self, which: np.ndarray, batch_size: int, rng: np.random.Generator = None) -> Iterator[np.ndarray]:
        order = rng.permutation(len(which)) if rng is not None else np.arange(len(which))
        for start in range(0, len(which), batch_size):
            yield self.gather(which[order[start:start + batch_size]])
