/* Explicit SIMD for the NNUE accumulators and the output layer, chosen when
 * the core is compiled (setup.py):
 *
 *   -march=native on a CPU with AVX-512BW   512-bit vectors, 32 int16 lanes
 *   -march=native on a CPU with AVX2        256-bit vectors, 16 int16 lanes
 *   ENGINE_PORTABLE=1 or ENGINE_SIMD=0      VIREO_SIMD_WIDTH 0: the plain C
 *                                           loops of accumulator.pxi/infer.pxi
 *
 * Every function gives exactly the plain loops' result: int16 additions wrap
 * in both, and the output sums are only taken here when the network's worst
 * case fits int32 (sum_fits_int32, decided at load).
 *
 * Why explicit: the accumulator is summed in registers a tile at a time, so a
 * refresh of 32 pieces reads each weight row once and writes the accumulator
 * once, where the plain loop (which GCC vectorizes row by row) loads and
 * stores the accumulator again for every piece. The layout of a tile (eight
 * registers for AVX2, sixteen for AVX-512: half the register file, leaving
 * room for the rows being added) follows the register-blocking idea of
 * Stockfish's and Koivisto's accumulator code; this code is written afresh.
 *
 * The vector operations are named once per width (VEC_*), so one loop body
 * serves both widths and the AVX-512 path is the same code as the AVX2 one
 * that the tests run.
 */
#ifndef VIREO_NNUE_SIMD_H
#define VIREO_NNUE_SIMD_H

#include <stdint.h>
#include <string.h>

#if !defined(ENGINE_NO_SIMD) && defined(__AVX512BW__)
#include <immintrin.h>
#define VIREO_SIMD_WIDTH 512
#define VIREO_SIMD_NAME "avx512"
#define VIREO_TILE_REGS 16
typedef __m512i vireo_vec;
#define VEC_LANES 32
#define VEC_LOAD(p) _mm512_loadu_si512((const void *)(p))
#define VEC_STORE(p, v) _mm512_storeu_si512((void *)(p), (v))
#define VEC_ADD16(a, b) _mm512_add_epi16((a), (b))
#define VEC_SUB16(a, b) _mm512_sub_epi16((a), (b))
#define VEC_MAX16(a, b) _mm512_max_epi16((a), (b))
#define VEC_MIN16(a, b) _mm512_min_epi16((a), (b))
#define VEC_MULLO16(a, b) _mm512_mullo_epi16((a), (b))
#define VEC_MADD16(a, b) _mm512_madd_epi16((a), (b))
#define VEC_ADD32(a, b) _mm512_add_epi32((a), (b))
#define VEC_ZERO() _mm512_setzero_si512()
#define VEC_SET16(x) _mm512_set1_epi16((short)(x))
#define VEC_HSUM32(v) _mm512_reduce_add_epi32(v)

#elif !defined(ENGINE_NO_SIMD) && defined(__AVX2__)
#include <immintrin.h>
#define VIREO_SIMD_WIDTH 256
#define VIREO_SIMD_NAME "avx2"
#define VIREO_TILE_REGS 8
typedef __m256i vireo_vec;
#define VEC_LANES 16
#define VEC_LOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define VEC_STORE(p, v) _mm256_storeu_si256((__m256i *)(p), (v))
#define VEC_ADD16(a, b) _mm256_add_epi16((a), (b))
#define VEC_SUB16(a, b) _mm256_sub_epi16((a), (b))
#define VEC_MAX16(a, b) _mm256_max_epi16((a), (b))
#define VEC_MIN16(a, b) _mm256_min_epi16((a), (b))
#define VEC_MULLO16(a, b) _mm256_mullo_epi16((a), (b))
#define VEC_MADD16(a, b) _mm256_madd_epi16((a), (b))
#define VEC_ADD32(a, b) _mm256_add_epi32((a), (b))
#define VEC_ZERO() _mm256_setzero_si256()
#define VEC_SET16(x) _mm256_set1_epi16((short)(x))
static inline int32_t vireo_hsum32_256(__m256i v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));   /* lanes 2,3 onto 0,1 */
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));   /* lane 1 onto 0 */
    return _mm_cvtsi128_si32(s);
}
#define VEC_HSUM32(v) vireo_hsum32_256(v)

#else
#define VIREO_SIMD_WIDTH 0
#define VIREO_SIMD_NAME "plain"
#endif

#if VIREO_SIMD_WIDTH

#define VIREO_TILE (VIREO_TILE_REGS * VEC_LANES)

/* out = base + add[0] + ... + add[n_add-1] - sub[0] - ... - sub[n_sub-1],
 * over h int16 lanes (out may equal base). A refresh is base = the bias and
 * add = one row per piece; an update is base = the parent's accumulator. */
static inline void vireo_acc_sum(int16_t *out, const int16_t *base,
                                 const int16_t *const *add, int n_add,
                                 const int16_t *const *sub, int n_sub, int h) {
    int j = 0, i, k;
    for (; j + VIREO_TILE <= h; j += VIREO_TILE) {
        vireo_vec r[VIREO_TILE_REGS];
        for (k = 0; k < VIREO_TILE_REGS; k++)
            r[k] = VEC_LOAD(base + j + k * VEC_LANES);
        for (i = 0; i < n_add; i++)
            for (k = 0; k < VIREO_TILE_REGS; k++)
                r[k] = VEC_ADD16(r[k], VEC_LOAD(add[i] + j + k * VEC_LANES));
        for (i = 0; i < n_sub; i++)
            for (k = 0; k < VIREO_TILE_REGS; k++)
                r[k] = VEC_SUB16(r[k], VEC_LOAD(sub[i] + j + k * VEC_LANES));
        for (k = 0; k < VIREO_TILE_REGS; k++)
            VEC_STORE(out + j + k * VEC_LANES, r[k]);
    }
    for (; j + VEC_LANES <= h; j += VEC_LANES) {     /* small networks: a vector at a time */
        vireo_vec r = VEC_LOAD(base + j);
        for (i = 0; i < n_add; i++)
            r = VEC_ADD16(r, VEC_LOAD(add[i] + j));
        for (i = 0; i < n_sub; i++)
            r = VEC_SUB16(r, VEC_LOAD(sub[i] + j));
        VEC_STORE(out + j, r);
    }
    for (; j < h; j++) {                             /* AVX-512 with h % 32 == 16 */
        int16_t v = base[j];
        for (i = 0; i < n_add; i++)
            v = (int16_t)(v + add[i][j]);
        for (i = 0; i < n_sub; i++)
            v = (int16_t)(v - sub[i][j]);
        out[j] = v;
    }
}

/* SCReLU's sum v*v*w as (v*w)*v, v = clamp(acc, 0, clip): exact when every
 * v*w fits int16 (product_fits_int16) and the sum fits int32. */
static inline int32_t vireo_screlu_madd(const int16_t *acc, const int16_t *w, int16_t clip, int h) {
    const vireo_vec zero = VEC_ZERO(), top = VEC_SET16(clip);
    vireo_vec s0 = VEC_ZERO(), s1 = VEC_ZERO();
    int j = 0;
    int32_t s;
    for (; j + 2 * VEC_LANES <= h; j += 2 * VEC_LANES) {   /* two sums in flight */
        vireo_vec v0 = VEC_MIN16(VEC_MAX16(VEC_LOAD(acc + j), zero), top);
        vireo_vec v1 = VEC_MIN16(VEC_MAX16(VEC_LOAD(acc + j + VEC_LANES), zero), top);
        s0 = VEC_ADD32(s0, VEC_MADD16(VEC_MULLO16(v0, VEC_LOAD(w + j)), v0));
        s1 = VEC_ADD32(s1, VEC_MADD16(VEC_MULLO16(v1, VEC_LOAD(w + j + VEC_LANES)), v1));
    }
    for (; j + VEC_LANES <= h; j += VEC_LANES) {
        vireo_vec v0 = VEC_MIN16(VEC_MAX16(VEC_LOAD(acc + j), zero), top);
        s0 = VEC_ADD32(s0, VEC_MADD16(VEC_MULLO16(v0, VEC_LOAD(w + j)), v0));
    }
    s = VEC_HSUM32(VEC_ADD32(s0, s1));
    for (; j < h; j++) {
        int16_t v = acc[j] < 0 ? 0 : (acc[j] > clip ? clip : acc[j]);
        s += (int32_t)(int16_t)(v * w[j]) * v;
    }
    return s;
}

/* CReLU's sum v*w, v = clamp(acc, 0, clip): exact when the sum fits int32
 * (one product pair is at most 2 * 32767^2 < 2^31). */
static inline int32_t vireo_crelu_madd(const int16_t *acc, const int16_t *w, int16_t clip, int h) {
    const vireo_vec zero = VEC_ZERO(), top = VEC_SET16(clip);
    vireo_vec s0 = VEC_ZERO();
    int j = 0;
    int32_t s;
    for (; j + VEC_LANES <= h; j += VEC_LANES) {
        vireo_vec v0 = VEC_MIN16(VEC_MAX16(VEC_LOAD(acc + j), zero), top);
        s0 = VEC_ADD32(s0, VEC_MADD16(v0, VEC_LOAD(w + j)));
    }
    s = VEC_HSUM32(s0);
    for (; j < h; j++) {
        int32_t v = acc[j] < 0 ? 0 : (acc[j] > clip ? clip : acc[j]);
        s += v * w[j];
    }
    return s;
}

#else   /* plain: the .pxi code takes its own (fused) loops instead; these
           are the same sums written simply, so that the names always exist */

static inline void vireo_acc_sum(int16_t *out, const int16_t *base,
                                 const int16_t *const *add, int n_add,
                                 const int16_t *const *sub, int n_sub, int h) {
    int i, j;
    memmove(out, base, (size_t)h * sizeof(int16_t));
    for (i = 0; i < n_add; i++)
        for (j = 0; j < h; j++)
            out[j] = (int16_t)(out[j] + add[i][j]);
    for (i = 0; i < n_sub; i++)
        for (j = 0; j < h; j++)
            out[j] = (int16_t)(out[j] - sub[i][j]);
}
static inline int32_t vireo_screlu_madd(const int16_t *acc, const int16_t *w, int16_t clip, int h) {
    int32_t s = 0;
    for (int j = 0; j < h; j++) {
        int16_t v = acc[j] < 0 ? 0 : (acc[j] > clip ? clip : acc[j]);
        s += (int32_t)(int16_t)(v * w[j]) * v;
    }
    return s;
}
static inline int32_t vireo_crelu_madd(const int16_t *acc, const int16_t *w, int16_t clip, int h) {
    int32_t s = 0;
    for (int j = 0; j < h; j++) {
        int32_t v = acc[j] < 0 ? 0 : (acc[j] > clip ? clip : acc[j]);
        s += v * w[j];
    }
    return s;
}

#endif
#endif
