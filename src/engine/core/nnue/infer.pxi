# The output layer, in integers exactly as network_file.reference_eval:
#   OW, OB = the output weights and bias of the board's bucket,
#            min(B - 1, (pieces - 2) * B / 32)
#   v(x) = clamp(x, 0, QA)
#   CReLU:  s = sum v(us)*OW[:H] + sum v(them)*OW[H:]
#   SCReLU: s = (sum v(us)^2*OW[:H] + sum v(them)^2*OW[H:]) / QA
#   eval  = (s + OB) * SCALE / (QA * QB)       (C division: toward zero)
# Each term fits int32 (v <= 32767, so v^2 < 2^30 before the int16 weight
# is applied in int64); the sums run in int32 lanes when the network's
# worst case allows it (sum_fits_int32, decided at load) and in int64
# otherwise, and the last step in 128 bits, so no file can overflow it.
# Trained networks (QA 255, |OW| <= 127) take the fastest path,
# screlu_sum_madd: it halved the output layer's share of the search's time
# (perf, vireo bench --nnue: 5.8% -> 3.0%).

cdef extern from *:
    ctypedef long long i128 "__int128"

cdef inline int32_t screlu_sum32(const int16_t *acc, const int16_t *w, int clip, int h) noexcept nogil:
    cdef int j
    cdef int32_t v, s = 0
    for j in range(h):
        v = acc[j]
        v = 0 if v < 0 else (clip if v > clip else v)
        s += v * v * w[j]
    return s

cdef inline int32_t screlu_sum_madd(const int16_t *acc, const int16_t *w, int16_t clip, int h) noexcept nogil:
    # v * v * w as (v * w) * v: when v * w fits int16 (product_fits_int16, as
    # in trained networks: v <= 255, |w| <= 127) the loop is int16 products
    # summed pairwise into int32, the multiply-add the C compiler vectorizes
    # as vpmaddwd (16 lanes a step instead of vpmulld's 8); exactly the same sum.
    cdef int j
    cdef int16_t v, vw
    cdef int32_t s = 0
    for j in range(h):
        v = acc[j]
        v = 0 if v < 0 else (clip if v > clip else v)
        vw = <int16_t>(v * w[j])
        s += <int32_t>vw * <int32_t>v
    return s

cdef inline int64_t screlu_sum64(const int16_t *acc, const int16_t *w, int clip, int h) noexcept nogil:
    cdef int j
    cdef int32_t v
    cdef int64_t s = 0
    for j in range(h):
        v = acc[j]
        v = 0 if v < 0 else (clip if v > clip else v)
        s += <int64_t>(v * v) * w[j]
    return s

cdef inline int32_t crelu_sum32(const int16_t *acc, const int16_t *w, int clip, int h) noexcept nogil:
    cdef int j
    cdef int32_t v, s = 0
    for j in range(h):
        v = acc[j]
        v = 0 if v < 0 else (clip if v > clip else v)
        s += v * w[j]
    return s

cdef inline int64_t crelu_sum64(const int16_t *acc, const int16_t *w, int clip, int h) noexcept nogil:
    cdef int j
    cdef int32_t v
    cdef int64_t s = 0
    for j in range(h):
        v = acc[j]
        v = 0 if v < 0 else (clip if v > clip else v)
        s += <int64_t>(v * w[j])
    return s

cdef inline int nnue_bucket(const NnueNet *net, const Pos *pos) noexcept nogil:
    cdef int b = (bb_count(pos.by_type[0]) - 2) * net.buckets // 32
    return 0 if b < 0 else (net.buckets - 1 if b >= net.buckets else b)

cdef int64_t nnue_output(const NnueNet *net, const int16_t *acc, int side, int bucket) noexcept nogil:
    """The network's output (centipawns, side to move) from both accumulators."""
    cdef int h = net.hidden
    cdef const int16_t *us = acc + side * h
    cdef const int16_t *them = acc + (side ^ 1) * h
    cdef const int16_t *ow = net.out_weights + bucket * 2 * h
    cdef int64_t s
    if net.activation == NNUE_SCRELU:
        if net.sum_fits_int32 and net.product_fits_int16 and NNUE_SIMD_ON:
            s = <int64_t>vireo_screlu_madd(us, ow, <int16_t>net.clip, h) \
                + vireo_screlu_madd(them, ow + h, <int16_t>net.clip, h)
        elif net.sum_fits_int32 and net.product_fits_int16:
            s = <int64_t>screlu_sum_madd(us, ow, <int16_t>net.clip, h) \
                + screlu_sum_madd(them, ow + h, <int16_t>net.clip, h)
        elif net.sum_fits_int32:
            s = <int64_t>screlu_sum32(us, ow, net.clip, h) \
                + screlu_sum32(them, ow + h, net.clip, h)
        else:
            s = screlu_sum64(us, ow, net.clip, h) \
                + screlu_sum64(them, ow + h, net.clip, h)
        s = s // net.qa          # cdivision: truncates toward zero, as the reference
    elif net.sum_fits_int32 and NNUE_SIMD_ON:
        s = <int64_t>vireo_crelu_madd(us, ow, <int16_t>net.clip, h) \
            + vireo_crelu_madd(them, ow + h, <int16_t>net.clip, h)
    elif net.sum_fits_int32:
        s = <int64_t>crelu_sum32(us, ow, net.clip, h) \
            + crelu_sum32(them, ow + h, net.clip, h)
    else:
        s = crelu_sum64(us, ow, net.clip, h) \
            + crelu_sum64(them, ow + h, net.clip, h)
    return <int64_t>((<i128>(s + net.out_bias[bucket]) * net.scale) // net.qaqb)

cdef inline int64_t nnue_evaluate(Pos *pos) noexcept nogil:
    """Incremental NNUE evaluation; pos.nnue must fit NNUE_NET (nnue_stack_fit)."""
    return nnue_output(NNUE_NET, nnue_accumulator(pos, NNUE_NET), pos.side, nnue_bucket(NNUE_NET, pos))

cdef int64_t nnue_evaluate_full(const Pos *pos, int16_t *scratch) noexcept nogil:
    """The same from a full refresh into scratch (2H int16): the tests' oracle."""
    nnue_refresh(pos, NNUE_NET, scratch)
    return nnue_output(NNUE_NET, scratch, pos.side, nnue_bucket(NNUE_NET, pos))

# The network's centipawns run larger than the classical evaluation's, for
# which every margin of the search was tuned: fitted to game results
# (P(win) = 1 / (1 + 10^(-cp/K)), 8,456 positions of ../shared/data/tuning)
# the network's K is 640 against the classical 515, a ratio of 1.24, so the
# search reads the network's output times 4/5 (the classical scale).
# Compile-time constants: the division by 5 becomes a multiply and a shift.
cdef enum:
    NNUE_SEARCH_NUM = 4
    NNUE_SEARCH_DEN = 5

cdef inline int nnue_search_scale(int64_t v) noexcept nogil:
    """The network's output as the search reads it: times 4/5 (C division,
    toward zero, so both sides see the same magnitude), inside +-30000."""
    v = v * NNUE_SEARCH_NUM // NNUE_SEARCH_DEN
    if v > 30000:
        return 30000
    if v < -30000:
        return -30000
    return <int>v

cdef inline int eval_for_search(Pos *pos, PawnEntry *pawns) noexcept nogil:
    """What the search calls: the network when this position carries
    accumulators (the search's use_nnue), at the classical scale, else the
    classical evaluation (pawns: the searching thread's own pawn cache)."""
    if pos.nnue == NULL:
        return evaluate(pos, pawns)
    return nnue_search_scale(nnue_evaluate(pos))
