# Correction history: the static evaluation's error, learned during the
# search per pawn structure and applied to later static evaluations.
#
# When a node's search result says more about the position than its static
# evaluation did (an exact score, a fail high above it or a fail low below
# it, and the best move is quiet), the difference is folded into a running
# average kept per (side to move, pawn key: pawns and kings). Positions of
# that structure later have their static evaluation moved by that average,
# so the steps that read it (reverse futility, null move, futility, razoring,
# `improving`, the stand pat) start from a better guess. The hash table
# keeps the raw evaluation, so no stale correction is left in it.
#
# The idea is Stockfish's (2024, "correction history", keyed by pawn
# structure). This is the form of benchmarks/results/corrhist.patch (a
# depth-weighted running average in 1/256 centipawns, bounded), which
# measured +7.2 +/- 29.6 Elo over 193 games against generation 4 before its
# SPRT was stopped for another test (docs/results.md, "Tried and not
# kept"); here it lives in the core behind a tunable, so that its SPRT
# needs no patch.

cdef enum:
    CORR_SIZE = 16384           # entries per side (a power of two)
    CORR_GRAIN = 256            # entries are in 1/256 centipawn (reads shift by 8)

# A correction never exceeds CORR_MAX_CP centipawns; 0 switches the
# correction off (every entry stays 0). Off until its SPRT at 10+0.1
# against the search without it passes; the candidate plays with 96 (the
# patch's bound) through `vireo uci --tune`.
cdef int CORR_MAX_CP = 0
cdef int CORR_WEIGHT_MAX = 64   # weight of one result, 4 * (depth + 1) / 256, at most this / 256

cdef struct CorrectionHistory:
    int16_t pawn[2][CORR_SIZE]  # [side to move][pawn key % CORR_SIZE]

cdef inline int16_t *correction_entry(CorrectionHistory *c, const Pos *pos) noexcept nogil:
    return &c.pawn[pos.side][pos.st[pos.sp].pawn_key & (CORR_SIZE - 1)]

cdef inline int corrected_eval(CorrectionHistory *c, const Pos *pos, int raw) noexcept nogil:
    """The static evaluation with this pawn structure's learned error added
    (the caller clamps it out of the mate range)."""
    # Rounded to the nearest centipawn (>> floors): the running average
    # stops a few 1/256 short of a steady error, and floor would read 39 for 40.
    if not CORR_MAX_CP:
        return raw          # off: no table access on the hot path
    return raw + ((<int>correction_entry(c, pos)[0] + CORR_GRAIN // 2) >> 8)

cdef inline void update_correction(CorrectionHistory *c, const Pos *pos, int raw, int result,
                                   int depth) noexcept nogil:
    """Move the entry toward result - raw, by more the deeper the search."""
    cdef int16_t *entry
    cdef int bound = CORR_MAX_CP * CORR_GRAIN
    cdef int target = (result - raw) * CORR_GRAIN
    cdef int weight = 4 * (depth + 1) if 4 * (depth + 1) < CORR_WEIGHT_MAX else CORR_WEIGHT_MAX
    cdef int value
    if not CORR_MAX_CP:
        return              # off: every entry stays 0
    entry = correction_entry(c, pos)
    if target > bound:
        target = bound
    elif target < -bound:
        target = -bound
    value = (entry[0] * (256 - weight) + target * weight) // 256
    entry[0] = <int16_t>value
