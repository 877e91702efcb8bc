"""The positions of a kept game file, expanded once into a Marlinformat file
that the trainer memory-maps.

Expanding replays every game in python-chess (about 10,000 moves a CPU
second: `time vireo datagen --convert X.games.xz X.bin`), too slow to repeat
every training run, so the result is
kept in a cache named by the file's SHA-256 and the expansion's version:
a changed file or a changed filter never reads a stale expansion. The cache
lives in $VIREO_CACHE, else $XDG_CACHE_HOME/vireo, else ~/.cache/vireo.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .expand import expand_games
from .files import read_games, sha256

EXPANSION_VERSION = 1     # bump when expand.py would give other records


def cache_dir() -> Path:
    if os.environ.get("VIREO_CACHE"):
        return Path(os.environ["VIREO_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "vireo"


def expanded(path) -> Path:
    """A Marlinformat file holding exactly the positions `path` trains on."""
    target = cache_dir() / "expanded" / f"{sha256(path)}-v{EXPANSION_VERSION}.bin"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    # minutes for a generation's file: say why nothing else happens meanwhile
    print(f"expanding {path} into {target} (once; later runs read it from there)", file=sys.stderr, flush=True)
    temporary = target.with_suffix(f".{os.getpid()}.tmp")
    try:
        with open(temporary, "wb") as out:
            for record in expand_games(read_games(path), str(path)):
                out.write(record)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    return target
