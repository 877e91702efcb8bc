"""Feature matrix of a set of positions, traced by the engine itself.

Every evaluation term is count * weight, so a position's white-view eval is

    eval = rho_mg * sum(count * w_mg) + rho_eg * sum(count * w_eg)
    rho_mg = phase / 24,  rho_eg = (24 - phase) / 24 * scale / 128

(exactly what engine._core computes, up to integer rounding). The counts are
stored sparse: one (row, col, count) triple per non-zero count.
"""
from dataclasses import dataclass

import numpy as np

from engine import _core

CHUNK = 50_000


@dataclass
class FeatureSet:
    rows: np.ndarray      # int32, position of each non-zero count
    cols: np.ndarray      # int32, weight index
    vals: np.ndarray      # float32, the count
    rho_mg: np.ndarray    # float64 per position
    rho_eg: np.ndarray
    engine_eval: np.ndarray   # the engine's own eval (white's view) when traced
    scale: np.ndarray     # int16 endgame scale (0 = the engine calls it a draw)

    @property
    def size(self):
        return len(self.rho_mg)

    def select(self, mask):
        """The positions where mask is True (rows renumbered)."""
        keep = np.flatnonzero(mask)
        new_index = np.full(self.size, -1, dtype=np.int64)
        new_index[keep] = np.arange(len(keep))
        nz = mask[self.rows]
        return FeatureSet(new_index[self.rows[nz]].astype(np.int32), self.cols[nz], self.vals[nz],
                          self.rho_mg[keep], self.rho_eg[keep], self.engine_eval[keep], self.scale[keep])


def trace(fens, progress=None):
    """FeatureSet of the FENs under the engine's current weights."""
    parts = []
    for start in range(0, len(fens), CHUNK):
        out = _core.eval_features_batch(fens[start:start + CHUNK])
        parts.append((start, out))
        if progress:
            progress(min(start + CHUNK, len(fens)), len(fens))
    rows = np.concatenate([np.frombuffer(o["rows"], np.int32) + s for s, o in parts]).astype(np.int32)
    cols = np.concatenate([np.frombuffer(o["cols"], np.int32) for _, o in parts])
    vals = np.concatenate([np.frombuffer(o["vals"], np.int16) for _, o in parts]).astype(np.float32)
    phase = np.concatenate([np.frombuffer(o["phase"], np.int16) for _, o in parts]).astype(np.float64)
    scale = np.concatenate([np.frombuffer(o["scale"], np.int16) for _, o in parts])
    score = np.concatenate([np.frombuffer(o["score"], np.int32) for _, o in parts]).astype(np.float64)
    rho_mg = phase / 24.0
    rho_eg = (24.0 - phase) / 24.0 * scale / 128.0
    return FeatureSet(rows, cols, vals, rho_mg, rho_eg, score, scale)
