# The loaded NNUE network: the file format of tools/nnue/network_file.py
# (768 features, times K mirrored king buckets in version 3 -> H int16
# neurons per perspective -> CReLU/SCReLU -> 1 of B output buckets chosen by
# the piece count),
# parsed here (the core imports nothing above it) into 64-byte aligned C
# memory. Loading is cold code; a file that fails any check raises
# ValueError and the network already loaded stays.

from libc.stdlib cimport calloc, free
from libc.string cimport memcpy
from libc.stdint cimport int64_t

cdef extern from "<stdlib.h>" nogil:
    void *aligned_alloc(size_t alignment, size_t size)

cdef enum:
    NNUE_INPUTS = 768
    NNUE_HEADER = 40          # magic, version, inputs, H, activation, QA, QB, SCALE, B (versions 2, 3)
    NNUE_KING_MAP = 64        # version 3: u8[64] king bucket map after the header
    NNUE_MAX_HIDDEN = 2048
    NNUE_MAX_BUCKETS = 16
    NNUE_CRELU = 0
    NNUE_SCRELU = 1

cdef struct NnueNet:
    int hidden                # H, a multiple of 16 in 16..2048
    int activation            # NNUE_CRELU or NNUE_SCRELU
    int buckets               # B, output buckets (1 = one output)
    int king_buckets          # K, king buckets (1 for versions 1 and 2)
    bint mirrored             # version 3: king buckets, boards mirrored for a king on files e-h
    uint8_t king_bucket[64]   # own-view king square -> bucket (all 0 without king buckets)
    int32_t qa, qb, scale
    int32_t clip              # min(QA, 32767): the accumulators are int16
    int64_t qaqb              # QA * QB, the output's divisor
    bint sum_fits_int32       # every possible output sum fits int32 (faster loop)
    bint product_fits_int16   # clip * |output weight| <= 32767: SCReLU's v * w fits int16 (fastest loop)
    int16_t *weights          # [768 * K][H], feature-major
    int16_t *bias             # [H]
    int16_t *out_weights      # [B][2H]: per bucket, the side to move's half, then the other side's
    int32_t out_bias[NNUE_MAX_BUCKETS]
    long long generation      # increases with every successful load

cdef NnueNet *NNUE_NET = NULL          # the network in use, NULL until one loads
cdef long long NNUE_GENERATION = 0
cdef object NNUE_INFO = None           # its description for network_info()
cdef int NNUE_BUSY = 0                 # searches now using it (no swap meanwhile)

# Feature index of (perspective, piece code, square), as network_file.feature_index:
# own pieces first, each side seeing the board from its own side.
cdef int16_t NNUE_FEATURE[2][16][64]

cdef void init_nnue() noexcept nogil:
    cdef int p, pc, sq
    for p in range(2):
        for pc in range(16):
            for sq in range(64):
                if type_of(pc) < PAWN or type_of(pc) > KING:
                    NNUE_FEATURE[p][pc][sq] = 0
                else:
                    NNUE_FEATURE[p][pc][sq] = ((0 if color_of(pc) == p else 384)
                                               + (type_of(pc) - 1) * 64
                                               + (sq if p == WHITE else sq ^ 56))

cdef void nnue_net_free(NnueNet *net) noexcept nogil:
    if net != NULL:
        free(net.weights)
        free(net)

cdef size_t nnue_file_size(int hidden, int buckets, int king_buckets) noexcept nogil:
    """king_buckets: 0 for versions 1 and 2 (no map), K for version 3."""
    cdef size_t inputs = NNUE_INPUTS * (king_buckets if king_buckets > 0 else 1)
    return (NNUE_HEADER + (NNUE_KING_MAP if king_buckets > 0 else 0)
            + 2 * (inputs * hidden + hidden + buckets * 2 * hidden) + 4 * buckets + 4)

cdef NnueNet *nnue_net_from_bytes(bytes data) except NULL:
    """Check every field of the file (network_file.from_bytes's checks, same
    order and meaning) and copy it into a fresh NnueNet."""
    import struct, zlib
    cdef size_t n = len(data)
    cdef const char *raw = data
    cdef NnueNet *net
    cdef size_t count
    cdef int64_t bound, worst = 0
    cdef int j, b, h, weight, widest = 0, king = 0
    cdef size_t offset = NNUE_HEADER
    if n < NNUE_HEADER + 4:
        raise ValueError(f"truncated: {n} bytes is shorter than the header")
    magic, version, inputs, hidden, activation, qa, qb, scale, field = struct.unpack_from("<8sIIIIiiiI", data)
    if magic != b"VIREONN1":
        raise ValueError(f"not a Vireo network (magic {magic!r}, expected b'VIREONN1')")
    if version not in (1, 2, 3):
        raise ValueError(f"network version {version}, this engine reads versions 1 to 3")
    if version == 3:
        king = inputs // NNUE_INPUTS
    if inputs % NNUE_INPUTS or (version < 3 and inputs != NNUE_INPUTS) \
            or not 1 <= inputs // NNUE_INPUTS <= NNUE_MAX_KING_BUCKETS:
        raise ValueError(f"{inputs} inputs, this engine has {NNUE_INPUTS} features"
                         + (f" per king bucket (1..{NNUE_MAX_KING_BUCKETS})" if version == 3 else ""))
    if hidden % 16 or not 16 <= hidden <= NNUE_MAX_HIDDEN:
        raise ValueError(f"hidden size {hidden} is not a multiple of 16 in 16..{NNUE_MAX_HIDDEN}")
    buckets = 1 if version == 1 else field
    if not 1 <= buckets <= NNUE_MAX_BUCKETS:
        raise ValueError(f"{buckets} output buckets, not in 1..{NNUE_MAX_BUCKETS}")
    if n != nnue_file_size(hidden, buckets, king):
        raise ValueError(f"{n} bytes, a network with {hidden} neurons"
                         + (f", {buckets} output bucket(s) and {king} king bucket(s)" if king
                            else f" and {buckets} output bucket(s)")
                         + f" has {nnue_file_size(hidden, buckets, king)}")
    crc, = struct.unpack_from("<I", data, n - 4)
    if crc != zlib.crc32(memoryview(data)[:n - 4]):
        raise ValueError("checksum mismatch: the file is corrupt")
    if king:
        layout = data[NNUE_HEADER:NNUE_HEADER + NNUE_KING_MAP]
        if any(layout[sq] != layout[sq ^ 7] for sq in range(64)):
            raise ValueError("king buckets: files e-h must mirror files a-d")
        if set(layout) != set(range(king)):
            raise ValueError(f"king buckets: the map must use every bucket 0..{king - 1}")
        offset += NNUE_KING_MAP
    if activation not in (NNUE_CRELU, NNUE_SCRELU):
        raise ValueError(f"unknown activation {activation}")
    if min(qa, qb, scale) <= 0:
        raise ValueError("QA, QB and SCALE must be positive")
    if import_endianness() != "little":
        raise ValueError("this engine reads networks on little-endian machines only")
    net = <NnueNet *>calloc(1, sizeof(NnueNet))
    if net == NULL:
        raise MemoryError()
    # One block: weights, bias, output weights; each part stays 32-byte aligned
    # because H is a multiple of 16 (32 bytes) and 768 * H * 2 is a multiple of 64.
    h = hidden
    inputs = NNUE_INPUTS * (king if king else 1)
    count = inputs * h + h + buckets * 2 * h + 32
    net.weights = <int16_t *>aligned_alloc(64, (count * 2 + 63) // 64 * 64)
    if net.weights == NULL:
        free(net)
        raise MemoryError(f"cannot allocate a network of {hidden} neurons")
    net.bias = net.weights + <size_t>inputs * h
    net.out_weights = net.bias + h
    memcpy(net.weights, raw + offset, (<size_t>inputs * h + h + buckets * 2 * h) * 2)
    net.king_buckets = king if king else 1
    net.mirrored = king > 0
    for j in range(64):
        net.king_bucket[j] = <uint8_t>data[NNUE_HEADER + j] if king else 0
    for b, value in enumerate(struct.unpack_from(f"<{buckets}i", data, n - 4 - 4 * buckets)):
        net.out_bias[b] = value
    net.buckets = buckets
    net.hidden = h
    net.activation = activation
    net.qa, net.qb, net.scale = qa, qb, scale
    net.clip = qa if qa < 32767 else 32767
    net.qaqb = <int64_t>qa * qb
    # The bound of |sum| over all 2H output terms (in the worst bucket) decides
    # whether int32 lanes are exact for this network (they are for trained nets).
    # The widest single weight decides whether SCReLU's v * w fits int16.
    for b in range(buckets):
        bound = 0
        for j in range(2 * h):
            weight = abs(net.out_weights[b * 2 * h + j])
            bound += (<int64_t>net.clip * (net.clip if activation == NNUE_SCRELU else 1)) * weight
            widest = weight if weight > widest else widest
        worst = bound if bound > worst else worst
    net.sum_fits_int32 = worst < 2147483647
    net.product_fits_int16 = <int64_t>net.clip * widest <= 32767
    return net

cdef str import_endianness():
    import sys
    return sys.byteorder

def load_network(path):
    """Load a network file (format: tools/nnue/network_file.py) and make it
    the one in use. Returns network_info(). ValueError (the message says what
    is wrong) keeps the network already loaded; RuntimeError while a search
    uses the network."""
    global NNUE_NET, NNUE_GENERATION, NNUE_INFO
    import os
    if NNUE_BUSY:
        raise RuntimeError("the network cannot be replaced while a search uses it")
    try:
        with open(os.fspath(path), "rb") as handle:
            data = handle.read()
    except (OSError, TypeError) as exc:
        raise ValueError(f"cannot read network file {path!r}: {getattr(exc, 'strerror', None) or exc}") from None
    cdef NnueNet *net = nnue_net_from_bytes(data)
    NNUE_GENERATION += 1
    net.generation = NNUE_GENERATION
    nnue_net_free(NNUE_NET)
    NNUE_NET = net
    NNUE_INFO = {"path": os.fspath(path), "hidden": net.hidden, "buckets": net.buckets,
                 "king_buckets": net.king_buckets if net.mirrored else 0,
                 "activation": "screlu" if net.activation == NNUE_SCRELU else "crelu",
                 "qa": net.qa, "qb": net.qb, "scale": net.scale, "bytes": len(data)}
    return dict(NNUE_INFO)

def network_info():
    """The loaded network's description (dict), or None when none is loaded."""
    return None if NNUE_INFO is None else dict(NNUE_INFO)

def unload_network():
    """Forget the loaded network (tests; searches then refuse use_nnue)."""
    global NNUE_NET, NNUE_INFO
    if NNUE_BUSY:
        raise RuntimeError("the network cannot be unloaded while a search uses it")
    nnue_net_free(NNUE_NET)
    NNUE_NET = NULL
    NNUE_INFO = None
