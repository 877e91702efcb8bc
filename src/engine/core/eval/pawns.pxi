# Pawn structure and king shelter: terms that depend only on where the pawns
# and the kings stand, so they are cached in a pawn hash table keyed by
# st.pawn_key (Zobrist of pawns and kings).
#
# Each search thread owns its pawn table (SearchThread.pawns), as Stockfish's
# and Ethereal's per-thread pawn caches: one table shared by all threads was a
# data race (ThreadSanitizer, tests/sanitize/run.sh), and a race is undefined
# behaviour in C even where a check catches torn entries. Callers outside the
# search pass NULL and compute the terms afresh.
#
# An entry's check is its key xor-ed with its data and with PAWN_SALT, which
# changes whenever the weights do: entries scored with old weights then fail
# the check in every thread's table without anyone having to clear them.

cdef enum:
    PAWN_TABLE_BITS = 14                 # 16384 entries of 32 bytes = 512 KB a thread

cdef struct PawnEntry:
    u64 check            # pawn key ^ passed[0] ^ passed[1] ^ packed score ^ salt
    u64 passed[2]        # passed pawns of each colour
    int32_t mg           # pawn-structure score, white's view
    int32_t eg

# Changed only by init_eval (new weights), which must not run during a search.
cdef u64 PAWN_SALT = 0

cdef inline u64 pawn_entry_check(u64 key, u64 p0, u64 p1, int32_t mg, int32_t eg) noexcept nogil:
    return key ^ p0 ^ p1 ^ ((<u64><uint32_t>mg) << 32) ^ <u64><uint32_t>eg ^ PAWN_SALT

cdef void invalidate_pawn_tables() noexcept nogil:
    """New weights: no cached entry may be used again (a new salt; any value
    other than the old one will do, and the tables need not be touched)."""
    global PAWN_SALT
    PAWN_SALT = PAWN_SALT * 6364136223846793005ULL + 1442695040888963407ULL


cdef inline int relative_rank(int c, int sq) noexcept nogil:
    return rank_of(sq) ^ (7 * c)

cdef inline u64 ranks_from(int c, int r) noexcept nogil:
    """Squares on relative rank >= r (seen from colour c)."""
    return (~0ULL << (8 * r)) if c == WHITE else (~0ULL >> (8 * r))


cdef void pawn_structure(const Pos *pos, EvalInfo *ei, u64 passed[2]) noexcept nogil:
    """Passed, connected, isolated, doubled and backward pawns of both colours."""
    cdef int c, t, sq, f, r, push
    cdef u64 ours, theirs, b, stop
    for c in range(2):
        t = c ^ 1
        ours = pieces_of(pos, c, PAWN)
        theirs = pieces_of(pos, t, PAWN)
        passed[c] = 0
        push = 8 if c == WHITE else -8
        b = ours
        while b:
            sq = bb_pop(&b)
            f = file_of(sq)
            r = relative_rank(c, sq)
            if (PASSED_SPAN[c][sq] & theirs) == 0 and (FORWARD_FILE[c][sq] & ours) == 0:
                passed[c] |= sq_bb(sq)
                add_term(ei, c, W_PAWN_PASSED + r, 1)
            # Supported from behind, or with a neighbour on the same rank.
            if (PAWN_ATT[t][sq] & ours) or (ADJACENT_FILES[f] & RANK_BB[rank_of(sq)] & ours):
                add_term(ei, c, W_PAWN_CONNECTED + r, 1)
            if (ADJACENT_FILES[f] & ours) == 0:
                add_term(ei, c, W_PAWN_ISOLATED, 1)
            else:
                # Backward: no own pawn beside or behind on the next files can
                # ever protect it, and an enemy pawn holds its stop square.
                stop = sq_bb(sq + push)
                if (ADJACENT_FILES[f] & ~ranks_from(c, r + 1) & ours) == 0 \
                        and ((PAWN_ATT[c][sq + push] & theirs) or (stop & theirs)):
                    add_term(ei, c, W_PAWN_BACKWARD, 1)
            if FORWARD_FILE[c][sq] & ours:
                add_term(ei, c, W_PAWN_DOUBLED, 1)


cdef void king_shelter(const Pos *pos, EvalInfo *ei) noexcept nogil:
    """Own pawns in front of each king (shelter) and enemy pawns coming at it (storm)."""
    cdef int c, t, ksq, kf, ff, d, r_us, r_them
    cdef u64 front, ours, theirs
    for c in range(2):
        t = c ^ 1
        ksq = king_sq(pos, c)
        front = ranks_from(c, relative_rank(c, ksq))
        kf = file_of(ksq)
        if kf < 1:
            kf = 1
        elif kf > 6:
            kf = 6
        for ff in range(kf - 1, kf + 2):
            d = ff if ff < 7 - ff else 7 - ff
            ours = pieces_of(pos, c, PAWN) & FILE_BB[ff] & front
            theirs = pieces_of(pos, t, PAWN) & FILE_BB[ff] & front
            # the pawn nearest the king's side of the board on that file
            r_us = 0
            if ours:
                r_us = relative_rank(c, bb_lsb(ours) if c == WHITE else bb_msb(ours))
            r_them = 0
            if theirs:
                r_them = relative_rank(c, bb_lsb(theirs) if c == WHITE else bb_msb(theirs))
            add_term(ei, c, W_SHELTER + 8 * d + r_us, 1)
            add_term(ei, c, W_STORM + 8 * d + r_them, 1)


cdef inline void pawn_terms(const Pos *pos, EvalInfo *ei, PawnEntry *table) noexcept nogil:
    """Add the pawn-and-king terms to ei and set ei.passed, through the calling
    thread's pawn table (NULL: none) unless a trace is being recorded."""
    cdef EvalInfo local
    cdef u64 key = pos.st[pos.sp].pawn_key
    cdef PawnEntry *e = NULL
    cdef int32_t mg, eg
    if table != NULL and ei.trace == NULL and USE_PAWN_TABLE:
        e = &table[key & ((1 << PAWN_TABLE_BITS) - 1)]
        if e.check == pawn_entry_check(key, e.passed[0], e.passed[1], e.mg, e.eg):
            ei.passed[0] = e.passed[0]
            ei.passed[1] = e.passed[1]
            ei.mg[WHITE] += e.mg
            ei.eg[WHITE] += e.eg
            return
    local.mg[0] = local.mg[1] = local.eg[0] = local.eg[1] = 0
    local.trace = ei.trace
    pawn_structure(pos, &local, ei.passed)
    king_shelter(pos, &local)
    mg = local.mg[WHITE] - local.mg[BLACK]
    eg = local.eg[WHITE] - local.eg[BLACK]
    ei.mg[WHITE] += mg
    ei.eg[WHITE] += eg
    if e != NULL:
        e.passed[0] = ei.passed[0]
        e.passed[1] = ei.passed[1]
        e.mg = mg
        e.eg = eg
        e.check = pawn_entry_check(key, ei.passed[0], ei.passed[1], mg, eg)
