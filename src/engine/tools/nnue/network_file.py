"""The network file (`.nnue`) the core loads, and the integer forward pass that
defines what the core must compute.

Architecture (a perspective network, as in Stockfish's and bullet's simplest
nets): 768 board features per side (times K king buckets, version 3) -> an
accumulator of H int16 neurons per side -> clipped activation on both
accumulators (side to move first) -> one output, taken from one of B output
buckets chosen by the number of pieces on the board (bullet's "material
output buckets"; B = 1 is a plain network). H is in the header (a multiple
of 16, 16..2048), B too (1..16), and K (1..32).

File layout, little-endian, no padding:

    offset  type          what
    0       8 bytes       magic b"VIREONN1"
    8       u32           version: 1 (one output, B = 1), 2 (B output buckets),
                          3 (B output buckets and K king buckets, mirrored)
    12      u32           inputs: 768 (versions 1, 2), 768 * K (version 3)
    16      u32           H, accumulator neurons per side
    20      u32           activation: 0 = CReLU, 1 = SCReLU
    24      i32           QA  (activation clip and feature quantization, 255)
    28      i32           QB  (output weight quantization, 64)
    32      i32           SCALE (output to centipawns, 400)
    36      u32           version 1: reserved, 0; versions 2, 3: B, output buckets
    40      u8[64]        version 3 only: the king bucket of each square of a
                          perspective's own king, in its own view (see below)
    40/104  i16[I][H]     feature weights (I = inputs), feature-major (row f = feature f)
            i16[H]        accumulator biases
            i16[B][2H]    output weights, per bucket: H for the side to move, then H for the other side
            i32[B]        output biases
    end-4   u32           CRC-32 (zlib.crc32) of every byte before it

A network of one bucket is written as version 1, byte for byte the format
of the engines that predate buckets, so they still read it.

Quantization (how a float network becomes this file): feature weights and
biases times QA, output weights times QB, output biases times QA*QB, each
rounded to the nearest integer and clipped to its type.

Features. For perspective p (0 white, 1 black) a piece of colour c and type t
(1 pawn .. 6 king, python-chess numbering) on square s (A1=0 .. H8=63) is
feature  (0 if c == p else 384) + (t - 1) * 64 + (s if p == 0 else s ^ 56):
each side sees the board from its own side, its own pieces first.

King buckets (version 3; the horizontally mirrored king buckets of bullet's
and Stockfish's HalfKA-style nets, the idea theirs, this layout ours). Let k
be perspective p's own king square in its own view (s, or s ^ 56 for black).
When k is on files e-h the whole board is mirrored for that perspective
(m = 7, else m = 0), so its king is always on files a-d; the feature is then
    KB[k ^ m] * 768 + (0 if c == p else 384) + (t - 1) * 64 + (own-view s) ^ m
with KB the file's u8[64] map (each entry < K; the entries of files e-h equal
their mirror's, so the map reads the same either way). A king move that
changes its side's bucket or mirror changes every feature of that
perspective: the core refreshes it (from a cache of earlier refreshes, the
"refresh table") instead of updating it.

Output bucket of a board with n pieces (kings included):
min(B - 1, (n - 2) * B / 32), so with B = 8 the buckets are 2-5, 6-9, ...,
30-32 pieces.

Integer forward pass (what the core computes; all divisions truncate toward
zero, as C's):

    acc[p][j] = bias[j] + sum of W[f][j] over the features f of perspective p
                (int16 arithmetic)
    us, them  = acc[side to move], acc[other side]
    OW, OB    = the output weights and bias of the board's bucket
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
from typing import Iterable, List, Optional, Tuple, Union

import numpy as np

MAGIC = b"VIREONN1"
VERSION = 3                 # the newest version this module reads and writes
MAX_BUCKETS = 16
MAX_KING_BUCKETS = 32
INPUTS = 768                # features per king bucket
HEADER = struct.Struct("<8sIIIIiiiI")
CRELU, SCRELU = 0, 1
ACTIVATIONS = {"crelu": CRELU, "screlu": SCRELU}
DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE = 255, 64, 400


class NetworkFileError(ValueError):
    """A file that is not a network this version can load (the message says why)."""


def check_buckets(buckets: int) -> None:
    if not 1 <= buckets <= MAX_BUCKETS:
        raise NetworkFileError(f"{buckets} output buckets, not in 1..{MAX_BUCKETS}")


def king_bucket_layout(count: int) -> np.ndarray:
    """The king bucket maps `vireo train --king-buckets N` offers (u8[64], own
    view, A1 = 0), finer where the king stands most: on its first ranks.
        1: one bucket (mirroring only)
        2: first rank | the rest
        4: first rank a-b | first rank c-d | second rank | the rest
        8: first rank a, b, c, d | second rank a-b, c-d | ranks 3-4 | ranks 5-8
       16: ranks 1-2 square by square (a-d) | then two halves (a-b, c-d) of
           rank 3, rank 4, ranks 5-6, ranks 7-8"""
    half = {  # rank (0-7), file (0-3) -> bucket
        1: lambda r, f: 0,
        2: lambda r, f: 0 if r == 0 else 1,
        4: lambda r, f: (f // 2) if r == 0 else (2 if r == 1 else 3),
        8: lambda r, f: f if r == 0 else (4 + f // 2 if r == 1 else (6 if r < 4 else 7)),
        16: lambda r, f: (r * 4 + f if r < 2 else 8 + 2 * min(3, {2: 0, 3: 1, 4: 2, 5: 2}.get(r, 3)) + f // 2),
    }
    if count not in half:
        raise NetworkFileError(f"no king bucket layout of {count} buckets (there are {sorted(half)})")
    layout = np.zeros(64, dtype=np.uint8)
    for square in range(64):
        rank, file = divmod(square, 8)
        layout[square] = half[count](rank, file if file < 4 else 7 - file)
    return layout


def check_king_buckets(layout) -> int:
    """K, the number of king buckets of a map; NetworkFileError if it is not
    a u8[64] map whose files e-h mirror files a-d and that uses 0..K-1."""
    layout = np.asarray(layout)
    if layout.shape != (64,) or layout.dtype != np.uint8:
        raise NetworkFileError(f"king buckets: uint8 (64,) expected, got {layout.dtype} {layout.shape}")
    if any(layout[s] != layout[s ^ 7] for s in range(64)):
        raise NetworkFileError("king buckets: files e-h must mirror files a-d")
    count = int(layout.max()) + 1
    if count > MAX_KING_BUCKETS or set(layout.tolist()) != set(range(count)):
        raise NetworkFileError(f"king buckets: the map must use every bucket 0..K-1 with K <= {MAX_KING_BUCKETS}")
    return count


def output_bucket(pieces: int, buckets: int) -> int:
    """The output bucket of a board with this many pieces, kings included."""
    return max(0, min(buckets - 1, (pieces - 2) * buckets // 32))


@dataclass
class Network:
    hidden: int
    activation: int            # CRELU or SCRELU
    qa: int
    qb: int
    scale: int
    feature_weights: np.ndarray   # int16 [768, H]
    feature_bias: np.ndarray      # int16 [H]
    output_weights: np.ndarray    # int16 [B, 2H]
    output_bias: np.ndarray       # int32 [B]
    king_buckets: Optional[np.ndarray] = None   # uint8 [64] (version 3), None: 768 features

    @property
    def buckets(self) -> int:
        return len(self.output_bias)

    @property
    def king_bucket_count(self) -> int:
        return 1 if self.king_buckets is None else check_king_buckets(self.king_buckets)

    @property
    def inputs(self) -> int:
        return INPUTS * self.king_bucket_count

    def check(self) -> None:
        h = self.hidden
        if h % 16 or not 16 <= h <= 2048:
            raise NetworkFileError(f"hidden size {h} is not a multiple of 16 in 16..2048")
        if self.activation not in (CRELU, SCRELU):
            raise NetworkFileError(f"unknown activation {self.activation}")
        if min(self.qa, self.qb, self.scale) <= 0:
            raise NetworkFileError("QA, QB and SCALE must be positive")
        if self.output_bias.ndim != 1 or self.output_bias.dtype != np.int32:
            raise NetworkFileError(f"output_bias: int32 [B] expected, got {self.output_bias.dtype} "
                                   f"{self.output_bias.shape}")
        check_buckets(self.buckets)
        shapes = {"feature_weights": (self.inputs, h), "feature_bias": (h,), "output_weights": (self.buckets, 2 * h)}
        for name, shape in shapes.items():
            array = getattr(self, name)
            if array.shape != shape or array.dtype != np.int16:
                raise NetworkFileError(f"{name}: int16 {shape} expected, got {array.dtype} {array.shape}")


def file_size(hidden: int, buckets: int = 1, king_buckets: int = 0) -> int:
    """Bytes of a file; king_buckets 0 for versions 1 and 2 (no map), K >= 1 for version 3."""
    inputs = INPUTS * max(1, king_buckets)
    return (HEADER.size + (64 if king_buckets else 0)
            + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 4)


def to_bytes(net: Network) -> bytes:
    net.check()
    if net.king_buckets is not None:
        version, field = 3, net.buckets
    else:
        version, field = (1, 0) if net.buckets == 1 else (2, net.buckets)
    body = b"".join([
        HEADER.pack(MAGIC, version, net.inputs, net.hidden, net.activation, net.qa, net.qb, net.scale, field),
        b"" if net.king_buckets is None else net.king_buckets.astype(np.uint8).tobytes(),
        net.feature_weights.astype("<i2").tobytes(),
        net.feature_bias.astype("<i2").tobytes(),
        net.output_weights.astype("<i2").tobytes(),
        net.output_bias.astype("<i4").tobytes(),
    ])
    return body + struct.pack("<I", zlib.crc32(body))


def write_network(path: Union[str, Path], net: Network) -> None:
    Path(path).write_bytes(to_bytes(net))


def from_bytes(data: bytes) -> Network:
    if len(data) < HEADER.size + 4:
        raise NetworkFileError(f"truncated: {len(data)} bytes is shorter than the header")
    magic, version, inputs, hidden, activation, qa, qb, scale, field = HEADER.unpack_from(data)
    if magic != MAGIC:
        raise NetworkFileError(f"not a Vireo network (magic {magic!r}, expected {MAGIC!r})")
    if not 1 <= version <= VERSION:
        raise NetworkFileError(f"network version {version}, this engine reads versions 1 to {VERSION}")
    king = inputs // INPUTS if version == 3 else 0
    if inputs % INPUTS or (version < 3 and inputs != INPUTS) or not 1 <= inputs // INPUTS <= MAX_KING_BUCKETS:
        raise NetworkFileError(f"{inputs} inputs, this engine has {INPUTS} features"
                               + (f" per king bucket (1..{MAX_KING_BUCKETS})" if version == 3 else ""))
    if hidden % 16 or not 16 <= hidden <= 2048:
        raise NetworkFileError(f"hidden size {hidden} is not a multiple of 16 in 16..2048")
    buckets = 1 if version == 1 else field
    check_buckets(buckets)
    if len(data) != file_size(hidden, buckets, king):
        raise NetworkFileError(f"{len(data)} bytes, a network with {hidden} neurons"
                               + (f", {buckets} output bucket(s) and {king} king bucket(s)" if king
                                  else f" and {buckets} output bucket(s)")
                               + f" has {file_size(hidden, buckets, king)}")
    crc, = struct.unpack_from("<I", data, len(data) - 4)
    if crc != zlib.crc32(data[:-4]):
        raise NetworkFileError("checksum mismatch: the file is corrupt")
    offset = HEADER.size
    layout = None
    if version == 3:
        layout = np.frombuffer(data, dtype=np.uint8, count=64, offset=offset).copy()
        offset += 64
        if check_king_buckets(layout) != king:
            raise NetworkFileError(f"king buckets: the map uses {check_king_buckets(layout)} buckets, "
                                   f"the inputs are {king} x {INPUTS}")

    def take(count, dtype):
        nonlocal offset
        array = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
        offset += array.nbytes
        return array.astype(dtype[1:] if dtype.startswith("<") else dtype)

    weights = take(inputs * hidden, "<i2").reshape(inputs, hidden)
    bias = take(hidden, "<i2")
    output = take(buckets * 2 * hidden, "<i2").reshape(buckets, 2 * hidden)
    output_bias = take(buckets, "<i4")
    net = Network(hidden, activation, qa, qb, scale, weights.astype(np.int16), bias.astype(np.int16),
                  output.astype(np.int16), output_bias.astype(np.int32), layout)
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


def king_context(perspective: int, king_square: int, layout) -> Tuple[int, int]:
    """(first feature of the king's bucket, mirror m) for perspective p whose
    king stands on king_square (board coordinates); (0, 0) without a map."""
    if layout is None:
        return 0, 0
    own = king_square if perspective == 0 else king_square ^ 56
    mirror = 7 if own % 8 >= 4 else 0
    return int(layout[own ^ mirror]) * INPUTS, mirror


def board_features(board, layout=None) -> List[List[int]]:
    """[white's features, black's features] of a python-chess board; layout:
    the network's king bucket map (version 3), None for 768 features."""
    out: List[List[int]] = [[], []]
    contexts = [king_context(p, board.king(p == 0), layout) for p in (0, 1)]
    for square, piece in board.piece_map().items():
        color = 0 if piece.color else 1
        for perspective in (0, 1):
            base, mirror = contexts[perspective]
            out[perspective].append(base + feature_index(perspective, color, piece.piece_type, square ^ mirror))
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
    white, black = board_features(board, net.king_buckets)
    acc = [accumulator(net, white), accumulator(net, black)]
    stm = 0 if board.turn else 1
    us, them = acc[stm].astype(np.int64), acc[1 - stm].astype(np.int64)
    bucket = output_bucket(len(white), net.buckets)
    ow = net.output_weights[bucket].astype(np.int64)
    h = net.hidden
    vu, vt = np.clip(us, 0, net.qa), np.clip(them, 0, net.qa)
    if net.activation == CRELU:
        s = int(np.dot(vu, ow[:h]) + np.dot(vt, ow[h:]))
    else:
        s = _trunc_div(int(np.dot(vu * vu, ow[:h]) + np.dot(vt * vt, ow[h:])), net.qa)
    return _trunc_div((s + int(net.output_bias[bucket])) * net.scale, net.qa * net.qb)


def random_network(hidden: int = 32, activation: int = SCRELU, seed: int = 0, buckets: int = 1,
                   king_buckets: int = 0) -> Network:
    """A network of plausible magnitudes for tests (the evaluation is noise);
    king_buckets K >= 1: version 3 with king_bucket_layout(K)."""
    rng = np.random.default_rng(seed)
    layout = king_bucket_layout(king_buckets) if king_buckets else None
    return Network(
        hidden=hidden, activation=activation, qa=DEFAULT_QA, qb=DEFAULT_QB, scale=DEFAULT_SCALE,
        feature_weights=rng.integers(-40, 41, size=(INPUTS * max(1, king_buckets), hidden)).astype(np.int16),
        feature_bias=rng.integers(-60, 200, size=hidden).astype(np.int16),
        output_weights=rng.integers(-127, 128, size=(buckets, 2 * hidden)).astype(np.int16),
        output_bias=rng.integers(-3000, 3000, size=buckets).astype(np.int32),
        king_buckets=layout,
    )
