"""The validation loss of Vireo's hand-written evaluation, through the same
loss as the network's, so that a network's validation loss can be read
against what the engine had before it (`vireo train --baseline`)."""
from __future__ import annotations

import numpy as np

from engine._core import Position, static_eval

from ..marlinformat import decode
from .features import batch_features


def hand_written_loss(records: np.ndarray, wdl: float, sigmoid_scale: float) -> float:
    _stm, _other, score, result = batch_features(records)
    evals = np.array([static_eval(Position(decode(r.tobytes()).board.fen())) for r in records], dtype=np.float64)
    sigmoid = lambda x: 1 / (1 + np.exp(-x / sigmoid_scale))   # noqa: E731
    target = wdl * result + (1 - wdl) * sigmoid(score)
    return float(np.mean((sigmoid(evals) - target) ** 2))
