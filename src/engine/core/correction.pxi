# Correction histories: the static evaluation's error, learned during the
# search and applied to later static evaluations.
#
# When a node's search result says more about the position than its static
# evaluation did (an exact score, a fail high above it or a fail low below
# it, and the best move is quiet), the residual (result minus the corrected
# evaluation) is folded into four tables, each keyed by one feature of the
# position:
#   pawn       the pawns and kings (st.pawn_key), per side to move;
#   non-pawn   each colour's pieces other than pawns (st.nonpawn_key[c]),
#              one table per colour, per side to move;
#   continuation  the two moves that led here: (piece, to) two plies back
#              and (piece, to) one ply back.
# The corrected evaluation is the raw one plus the weighted sum of the four
# entries. Every table learns the same residual, so together they descend
# toward the search's scores rather than each adding the whole error again.
# Positions with a learned feature later start from a better guess in the
# steps that read the static evaluation (reverse futility, null move,
# futility, razoring, `improving`, the stand pat). The hash table keeps the
# raw evaluation, so no stale correction is left in it.
#
# The idea and the shape (a gravity update of depth * residual, and weights
# per table) are Stockfish's correction histories (2024: pawn, then
# non-pawn per colour, then continuation); the scales are ours, in
# centipawns.

cdef enum:
    CORR_SIZE = 16384           # entries per side and table (a power of two)
    CORR_LIMIT = 1024           # |entry| <= this (the gravity bound)

# Weight of each table: a full entry (CORR_LIMIT) moves the evaluation by
# weight / 64 centipawns, so 4096 is at most 64 cp. 0 switches a table off;
# all three 0 switch the correction off (no table is read or written).
cdef int CORR_PAWN_W = 4096
cdef int CORR_NONPAWN_W = 3072  # per colour
cdef int CORR_CONT_W = 2560
cdef int CORR_BONUS_DIV = 8     # one update: residual (cp) * depth / this, at most CORR_LIMIT / 4

cdef struct CorrectionHistory:
    int16_t pawn[2][CORR_SIZE]              # [side to move][pawn key % CORR_SIZE]
    int16_t nonpawn[2][2][CORR_SIZE]        # [side to move][colour][non-pawn key % CORR_SIZE]
    int16_t cont[16 * 64][16 * 64]          # [piece * 64 + to, 2 plies back][same, 1 ply back]

cdef inline bint correction_on() noexcept nogil:
    return CORR_PAWN_W != 0 or CORR_NONPAWN_W != 0 or CORR_CONT_W != 0

cdef inline int16_t *cont_correction_of(CorrectionHistory *c, int pc_before, Move before, int pc_last,
                                        Move last) noexcept nogil:
    """The continuation entry of two moves in a row (piece and move each)."""
    return &c.cont[pc_before * 64 + move_to(before)][pc_last * 64 + move_to(last)]

cdef inline int16_t *cont_correction_entry(CorrectionHistory *c, const SStack *ss) noexcept nogil:
    """The continuation entry of the two moves before this node (a null
    move counts as piece 0 on a1; the root's missing moves likewise)."""
    return cont_correction_of(c, (ss - 2).piece, (ss - 2).move, (ss - 1).piece, (ss - 1).move)

cdef inline void correction_prefetch(CorrectionHistory *c, const SStack *ss, int pc, Move m) noexcept nogil:
    """Start loading the continuation entry that the child reached by m
    (piece pc) will read: its two moves before are this node's last move and
    m. The table is 2 MB, so that read missed the caches more often than
    not (perf: the loads of the correction tables were over half of
    qsearch's own time)."""
    if CORR_CONT_W != 0:
        prefetch_addr(cont_correction_of(c, (ss - 1).piece, (ss - 1).move, pc, m))

cdef inline int corrected_eval(CorrectionHistory *c, const Pos *pos, const SStack *ss, int raw) noexcept nogil:
    """The static evaluation with the learned error added (the caller clamps
    it out of the mate range)."""
    cdef const StateInfo *st = &pos.st[pos.sp]
    cdef int us = pos.side
    cdef int64_t sum
    if not correction_on():
        return raw          # off: no table access on the hot path
    sum = (<int64_t>CORR_PAWN_W * c.pawn[us][st.pawn_key & (CORR_SIZE - 1)]
           + <int64_t>CORR_NONPAWN_W * (c.nonpawn[us][WHITE][st.nonpawn_key[WHITE] & (CORR_SIZE - 1)]
                                        + c.nonpawn[us][BLACK][st.nonpawn_key[BLACK] & (CORR_SIZE - 1)])
           + <int64_t>CORR_CONT_W * cont_correction_entry(c, ss)[0])
    # weight / 64 cp per full entry: sum / (64 * CORR_LIMIT), rounded toward zero
    return raw + <int>(sum // (64 * CORR_LIMIT) if sum >= 0 else -((-sum) // (64 * CORR_LIMIT)))

cdef inline void correction_gravity(int16_t *entry, int bonus) noexcept nogil:
    cdef int b = bonus if bonus >= 0 else -bonus
    entry[0] += bonus - entry[0] * b // CORR_LIMIT

cdef inline void update_correction(CorrectionHistory *c, const Pos *pos, const SStack *ss,
                                   int corrected, int result, int depth) noexcept nogil:
    """Move every table's entry toward closing result - corrected, by more
    the deeper the search."""
    cdef const StateInfo *st = &pos.st[pos.sp]
    cdef int us = pos.side
    cdef int bonus = (result - corrected) * depth // CORR_BONUS_DIV
    if not correction_on():
        return              # off: every entry stays 0
    if bonus > CORR_LIMIT // 4:
        bonus = CORR_LIMIT // 4
    elif bonus < -CORR_LIMIT // 4:
        bonus = -CORR_LIMIT // 4
    correction_gravity(&c.pawn[us][st.pawn_key & (CORR_SIZE - 1)], bonus)
    correction_gravity(&c.nonpawn[us][WHITE][st.nonpawn_key[WHITE] & (CORR_SIZE - 1)], bonus)
    correction_gravity(&c.nonpawn[us][BLACK][st.nonpawn_key[BLACK] & (CORR_SIZE - 1)], bonus)
    correction_gravity(cont_correction_entry(c, ss), bonus)
