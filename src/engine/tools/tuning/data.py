"""Labelled positions for tuning: `FEN;score;result` lines, plain or gzip.

The shared set (../shared/data/tuning, see its README) holds positions from
Stockfish self-play with Stockfish's score (centipawns, white's view; mates as
+-(32000 - plies)) and the game's result (1.0 / 0.5 / 0.0, white's view).
"""
import gzip
from pathlib import Path

import numpy as np

SHARED_TUNING = Path(__file__).resolve().parents[5] / "shared" / "data" / "tuning"
MATE_CLAMP = 2000      # mate scores are clamped to this many centipawns


def default_files():
    return sorted(SHARED_TUNING.glob("selfplay-*.txt.gz"))


def _open(path):
    path = Path(path)
    return gzip.open(path, "rt") if path.suffix == ".gz" else open(path)


def read_positions(paths, limit=None, mate_clamp=MATE_CLAMP):
    """(fens, scores, results) from the files in order; `limit` caps the
    total; scores are clipped to +-mate_clamp (None: left as they are). A
    malformed line raises ValueError naming file and line."""
    fens, scores, results = [], [], []
    for path in paths:
        with _open(path) as handle:
            for number, line in enumerate(handle, 1):
                if limit is not None and len(fens) >= limit:
                    break
                line = line.strip()
                if not line:
                    continue
                parts = line.split(";")
                try:
                    if len(parts) != 3:
                        raise ValueError("expected FEN;score;result")
                    score, result = float(parts[1]), float(parts[2])
                    if result not in (0.0, 0.5, 1.0):
                        raise ValueError(f"result {parts[2]!r} is not 0, 0.5 or 1")
                except ValueError as exc:
                    raise ValueError(f"{path}:{number}: {exc}") from None
                fens.append(parts[0])
                scores.append(score)
                results.append(result)
    scores = np.array(scores, dtype=np.float64)
    if mate_clamp is not None:
        scores = np.clip(scores, -mate_clamp, mate_clamp)
    return fens, scores, np.array(results, dtype=np.float64)
