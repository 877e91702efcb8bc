"""The network file (`.nnue`) the core loads, and the integer forward pass that
defines what the core must compute.

Architecture (a perspective network, as in Stockfish's and bullet's simplest
nets): 768 board features per side -> an accumulator of H int16 neurons per
side -> clipped activation on both accumulators (side to move first) -> one
output. H is in the header (a multiple of 16, 16..2048).

File layout, little-endian, no padding:

    offset  type          what
    0       8 bytes       magic b"VIREONN1"
    8       u32           version (1)
    12      u32           inputs (768)
    16      u32           H, accumulator neurons per side
    20      u32           activation: 0 = CReLU, 1 = SCReLU
    24      i32           QA  (activation clip and feature quantization, 255)
    28      i32           QB  (output weight quantization, 64)
    32      i32           SCALE (output to centipawns, 400)
    36      u32           reserved, 0
    40      i16[768][H]   feature weights, feature-major (row f = feature f)
            i16[H]        accumulator biases
            i16[2H]       output weights: H for the side to move, then H for the other side
            i32           output bias
    end-4   u32           CRC-32 (zlib.crc32) of every byte before it

Quantization (how a float network becomes this file): feature weights and
biases times QA, output weights times QB, output bias times QA*QB, each
rounded to the nearest integer and clipped to its type.

Features. For perspective p (0 white, 1 black) a piece of colour c and type t
(1 pawn .. 6 king, python-chess numbering) on square s (A1=0 .. H8=63) is
feature  (0 if c == p else 384) + (t - 1) * 64 + (s if p == 0 else s ^ 56):
each side sees the board from its own side, its own pieces first.

Integer forward pass (what the core computes; all divisions truncate toward
zero, as C's):

    acc[p][j] = bias[j] + sum of W[f][j] over the features f of perspective p
                (int16 arithmetic)
    us, them  = acc[side to move], acc[other side]
    CReLU:    v(x) = clamp(x, 0, QA);  s = sum_j v(us_j) * OW[j] + sum_j v(them_j) * OW[H + j]
    SCReLU:   v(x) = clamp(x, 0, QA);  s = (sum_j v(us_j)^2 * OW[j] + sum_j v(them_j)^2 * OW[H + j]) / QA
    eval      = (s + OB) * SCALE / (QA * QB)     centipawns for the side to move

The sums and the last step are exact integers (Python ints here); the core
sums in int32 when the network's worst case fits and in int64 otherwise, so
no file can overflow it.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, List, Union

import numpy as np

MAGIC = b"VIREONN1"
VERSION = 1
INPUTS = 768
HEADER = struct.Struct("<8sIIIIiiiI")
CRELU, SCRELU = 0, 1
ACTIVATIONS = {"crelu": CRELU, "screlu": SCRELU}
DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE = 255, 64, 400


class NetworkFileError(ValueError):
    """A file that is not a network this version can load (the message says why)."""


@dataclass
class Network:
    hidden: int
    activation: int            # CRELU or SCRELU
    qa: int
    qb: int
    scale: int
    feature_weights: np.ndarray   # int16 [768, H]
    feature_bias: np.ndarray      # int16 [H]
    output_weights: np.ndarray    # int16 [2H]
    output_bias: int              # int32

    def check(self) -> None:
        h = self.hidden
        if h % 16 or not 16 <= h <= 2048:
            raise NetworkFileError(f"hidden size {h} is not a multiple of 16 in 16..2048")
        if self.activation not in (CRELU, SCRELU):
            raise NetworkFileError(f"unknown activation {self.activation}")
        if min(self.qa, self.qb, self.scale) <= 0:
            raise NetworkFileError("QA, QB and SCALE must be positive")
        shapes = {"feature_weights": (INPUTS, h), "feature_bias": (h,), "output_weights": (2 * h,)}
        for name, shape in shapes.items():
            array = getattr(self, name)
            if array.shape != shape or array.dtype != np.int16:
                raise NetworkFileError(f"{name}: int16 {shape} expected, got {array.dtype} {array.shape}")


def file_size(hidden: int) -> int:
    return HEADER.size + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4 + 4


def to_bytes(net: Network) -> bytes:
    net.check()
    body = b"".join([
        HEADER.pack(MAGIC, VERSION, INPUTS, net.hidden, net.activation, net.qa, net.qb, net.scale, 0),
        net.feature_weights.astype("<i2").tobytes(),
        net.feature_bias.astype("<i2").tobytes(),
        net.output_weights.astype("<i2").tobytes(),
        struct.pack("<i", int(net.output_bias)),
    ])
    return body + struct.pack("<I", zlib.crc32(body))


def write_network(path: Union[str, Path], net: Network) -> None:
    Path(path).write_bytes(to_bytes(net))


def from_bytes(data: bytes) -> Network:
    if len(data) < HEADER.size + 4:
        raise NetworkFileError(f"truncated: {len(data)} bytes is shorter than the header")
    magic, version, inputs, hidden, activation, qa, qb, scale, _ = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise NetworkFileError(f"not a Vireo network (magic {magic!r}, expected {MAGIC!r})")
    if version != VERSION:
        raise NetworkFileError(f"network version {version}, this engine reads version {VERSION}")
    if inputs != INPUTS:
        raise NetworkFileError(f"{inputs} inputs, this engine has {INPUTS} features")
    if hidden % 16 or not 16 <= hidden <= 2048:
        raise NetworkFileError(f"hidden size {hidden} is not a multiple of 16 in 16..2048")
    if len(data) != file_size(hidden):
        raise NetworkFileError(f"{len(data)} bytes, a network with {hidden} neurons has {file_size(hidden)}")
    crc, = struct.unpack_from("<I", data, len(data) - 4)
    if crc != zlib.crc32(data[:-4]):
        raise NetworkFileError("checksum mismatch: the file is corrupt")
    offset = HEADER.size

    def take(count, dtype):
        nonlocal offset
        array = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
        offset += array.nbytes
        return array.astype(dtype[1:] if dtype.startswith("<") else dtype)

    weights = take(INPUTS * hidden, "<i2").reshape(INPUTS, hidden)
    bias = take(hidden, "<i2")
    output = take(2 * hidden, "<i2")
    output_bias = int(take(1, "<i4")[0])
    net = Network(hidden, activation, qa, qb, scale, weights.astype(np.int16), bias.astype(np.int16),
                  output.astype(np.int16), output_bias)
    net.check()
    return net


def read_network(path: Union[str, Path]) -> Network:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise NetworkFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    return from_bytes(data)


def feature_index(perspective: int, color: int, piece_type: int, square: int) -> int:
    """color and perspective: 0 white, 1 black (note: python-chess has WHITE = True)."""
    relative = square if perspective == 0 else square ^ 56
    return (0 if color == perspective else 384) + (piece_type - 1) * 64 + relative


def board_features(board) -> List[List[int]]:
    """[white's features, black's features] of a python-chess board."""
    out: List[List[int]] = [[], []]
    for square, piece in board.piece_map().items():
        color = 0 if piece.color else 1
        for perspective in (0, 1):
            out[perspective].append(feature_index(perspective, color, piece.piece_type, square))
    return out


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def accumulator(net: Network, features: Iterable[int]) -> np.ndarray:
    acc = net.feature_bias.copy()
    for f in features:
        acc += net.feature_weights[f]   # int16 arithmetic, wrapping like the core's
    return acc


def reference_eval(net: Network, board) -> int:
    """The exact integer evaluation (centipawns, side to move) the core must give."""
    white, black = board_features(board)
    acc = [accumulator(net, white), accumulator(net, black)]
    stm = 0 if board.turn else 1
    us, them = acc[stm].astype(np.int64), acc[1 - stm].astype(np.int64)
    ow = net.output_weights.astype(np.int64)
    h = net.hidden
    vu, vt = np.clip(us, 0, net.qa), np.clip(them, 0, net.qa)
    if net.activation == CRELU:
        s = int(np.dot(vu, ow[:h]) + np.dot(vt, ow[h:]))
    else:
        s = _trunc_div(int(np.dot(vu * vu, ow[:h]) + np.dot(vt * vt, ow[h:])), net.qa)
    return _trunc_div((s + net.output_bias) * net.scale, net.qa * net.qb)


def random_network(hidden: int = 32, activation: int = SCRELU, seed: int = 0) -> Network:
    """A network of plausible magnitudes for tests (the evaluation is noise)."""
    rng = np.random.default_rng(seed)
    return Network(
        hidden=hidden, activation=activation, qa=DEFAULT_QA, qb=DEFAULT_QB, scale=DEFAULT_SCALE,
        feature_weights=rng.integers(-40, 41, size=(INPUTS, hidden)).astype(np.int16),
        feature_bias=rng.integers(-60, 200, size=hidden).astype(np.int16),
        output_weights=rng.integers(-127, 128, size=2 * hidden).astype(np.int16),
        output_bias=int(rng.integers(-3000, 3000)),
    )
