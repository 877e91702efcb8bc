# The accumulator's arithmetic: sums of weight rows over H int16 lanes.
# With SIMD compiled in (core/nnue/simd.h: AVX2 or AVX-512, chosen at build
# time) refreshes and updates go through vireo_acc_sum, a tile of the
# accumulator at a time in registers. Otherwise (ENGINE_PORTABLE=1 or
# ENGINE_SIMD=0) the plain int16 loops below, which GCC vectorizes at -O3
# row by row. int16 additions wrap in both, exactly as the reference's
# numpy int16 sums, so neither the order of additions nor the path changes
# the result.

cdef extern from "core/nnue/simd.h" nogil:
    enum: VIREO_SIMD_WIDTH          # 512, 256 or 0 (plain loops)
    const char *VIREO_SIMD_NAME     # "avx512", "avx2" or "plain"
    void vireo_acc_sum(int16_t *out, const int16_t *base, const int16_t **add, int n_add,
                       const int16_t **sub, int n_sub, int h)
    int32_t vireo_screlu_madd(const int16_t *acc, const int16_t *w, int16_t clip, int h)
    int32_t vireo_crelu_madd(const int16_t *acc, const int16_t *w, int16_t clip, int h)

# On by default when compiled in; set_nnue_simd(False) takes the plain loops
# in the same build, so that tests compare both paths with the reference and
# benchmarks/nnue_speed.py times both in one process.
cdef bint NNUE_SIMD_ON = VIREO_SIMD_WIDTH != 0

def simd_path():
    """Which NNUE code runs: "avx512" or "avx2" (compiled in and on), or
    "plain" (ENGINE_PORTABLE=1 or ENGINE_SIMD=0 builds, or switched off)."""
    return VIREO_SIMD_NAME.decode() if NNUE_SIMD_ON else "plain"

def set_nnue_simd(bint on):
    """Use the compiled-in SIMD code (True) or the plain loops (False); both
    give identical results. Returns the path now in use (simd_path()).
    ValueError when SIMD is asked of a core compiled without it."""
    global NNUE_SIMD_ON
    if on and not VIREO_SIMD_WIDTH:
        raise ValueError("this core was compiled without SIMD (ENGINE_PORTABLE=1 or ENGINE_SIMD=0)")
    NNUE_SIMD_ON = on
    return simd_path()

cdef inline void acc_add_rows(int16_t *out, const int16_t *src, const int16_t *add0, const int16_t *add1,
                              const int16_t *sub0, const int16_t *sub1, int h) noexcept nogil:
    cdef int j
    for j in range(h):
        out[j] = <int16_t>(src[j] + add0[j] - sub0[j] + add1[j] - sub1[j])

cdef inline void acc_add_sub(int16_t *out, const int16_t *src, const int16_t *add0,
                             const int16_t *sub0, int h) noexcept nogil:
    cdef int j
    for j in range(h):
        out[j] = <int16_t>(src[j] + add0[j] - sub0[j])

cdef inline void acc_add_sub_sub(int16_t *out, const int16_t *src, const int16_t *add0,
                                 const int16_t *sub0, const int16_t *sub1, int h) noexcept nogil:
    cdef int j
    for j in range(h):
        out[j] = <int16_t>(src[j] + add0[j] - sub0[j] - sub1[j])

cdef inline void acc_add_row(int16_t *out, const int16_t *row, int h) noexcept nogil:
    cdef int j
    for j in range(h):
        out[j] = <int16_t>(out[j] + row[j])

cdef inline void acc_sub_row(int16_t *out, const int16_t *row, int h) noexcept nogil:
    cdef int j
    for j in range(h):
        out[j] = <int16_t>(out[j] - row[j])

cdef inline void acc_sum_rows(int16_t *out, const int16_t *base, const int16_t **adds, int n_add,
                              const int16_t **subs, int n_sub, int h) noexcept nogil:
    """out = base + the rows of adds - the rows of subs (out may be base):
    the SIMD code in one pass, or the plain loops a row at a time."""
    cdef int i
    if NNUE_SIMD_ON:
        vireo_acc_sum(out, base, adds, n_add, subs, n_sub, h)
        return
    if out != base:
        memcpy(out, base, h * sizeof(int16_t))
    for i in range(n_add):
        acc_add_row(out, adds[i], h)
    for i in range(n_sub):
        acc_sub_row(out, subs[i], h)
