from libc.string cimport memset

# King buckets (network version 3, tools/nnue/network_file.py) and the
# refreshes they cause. A perspective's features depend on its own king:
# the king's square picks a bucket (a block of 768 rows), and a king on
# files e-h mirrors the board (every square ^ 7). Networks without king
# buckets have one bucket and no mirror, so the same code serves them.
#
# A king move that changes its side's bucket or mirror changes every feature
# of that perspective; it is refreshed, not updated. Refreshes go through a
# refresh table (Koivisto's and Stockfish's "Finny tables"): per perspective,
# bucket and mirror, the accumulator last computed there and its pieces, so
# that a refresh adds and removes only the pieces that differ (a few, where a
# refresh from scratch adds all 32).

cdef inline int king_base(const uint8_t *king_bucket, bint mirrored, int p, int ksq,
                          int *mirror) noexcept nogil:
    """First feature of perspective p's king bucket for its king on ksq
    (board coordinates); *mirror = 7 when that perspective is mirrored."""
    cdef int own
    if not mirrored:
        mirror[0] = 0
        return 0
    own = ksq if p == WHITE else ksq ^ 56
    mirror[0] = 7 if (own & 7) >= 4 else 0
    return king_bucket[own ^ mirror[0]] * NNUE_INPUTS

cdef inline const int16_t *feature_row(const NnueNet *net, int base, int mirror, int p,
                                       int pc, int sq) noexcept nogil:
    return net.weights + <size_t>(base + NNUE_FEATURE[p][pc][sq ^ mirror]) * net.hidden

cdef void nnue_refresh_one(const Pos *pos, const NnueNet *net, int p, int16_t *out) noexcept nogil:
    """Perspective p from scratch: bias plus the row of every piece."""
    cdef int sq, n = 0, mirror
    cdef int base = king_base(net.king_bucket, net.mirrored, p, king_sq(pos, p), &mirror)
    cdef u64 occ = pos.by_type[0]
    cdef const int16_t *rows[64]
    while occ:
        sq = bb_lsb(occ)
        occ &= occ - 1
        rows[n] = feature_row(net, base, mirror, p, pos.board[sq], sq)
        n += 1
    acc_sum_rows(out, net.bias, rows, n, NULL, 0, net.hidden)

cdef void nnue_refresh(const Pos *pos, const NnueNet *net, int16_t *acc) noexcept nogil:
    """Both perspectives from scratch (white's half, then black's)."""
    nnue_refresh_one(pos, net, WHITE, acc)
    nnue_refresh_one(pos, net, BLACK, acc + net.hidden)

cdef int nnue_finny_fit(NnueStack *stk, const NnueNet *net, bint fresh) noexcept nogil:
    """Size the refresh table for net (2K entries a perspective; none without
    king buckets) and empty it when the memory or the network is new."""
    cdef int p, i, count = 2 * net.king_buckets if net.mirrored else 0
    cdef int16_t *mem = NULL
    stk.mirrored = net.mirrored
    memcpy(stk.king_bucket, net.king_bucket, 64)
    if fresh or count != stk.finny_count:
        if count:
            mem = <int16_t *>aligned_alloc(64, <size_t>2 * count * net.hidden * sizeof(int16_t))
            if mem == NULL:
                return -1
        free(stk.finny_memory)
        stk.finny_memory = mem
        stk.finny_count = count
        for p in range(2):
            for i in range(count):
                stk.finny[p][i].acc = mem + (<size_t>p * count + i) * net.hidden
        fresh = True
    if fresh or stk.generation != net.generation:
        for p in range(2):
            for i in range(count):
                stk.finny[p][i].valid = 0
    return 0

cdef void nnue_refresh_cached(NnueStack *stk, const Pos *pos, const NnueNet *net, int p,
                              int16_t *out) noexcept nogil:
    """Perspective p of the current position into out, through the refresh
    table when there is one (then the table's entry is brought up to date)."""
    cdef int c, t, sq, mirror, n_add = 0, n_sub = 0
    cdef int base
    cdef u64 now, added, removed
    cdef NnueFinny *entry
    cdef const int16_t *adds[64]
    cdef const int16_t *subs[64]
    if stk.finny_count == 0:
        nnue_refresh_one(pos, net, p, out)
        return
    base = king_base(net.king_bucket, net.mirrored, p, king_sq(pos, p), &mirror)
    entry = &stk.finny[p][(base // NNUE_INPUTS) * 2 + (1 if mirror else 0)]
    if not entry.valid:
        memcpy(entry.acc, net.bias, net.hidden * sizeof(int16_t))
        memset(entry.pieces, 0, sizeof(entry.pieces))
        entry.valid = 1
    for c in range(2):
        for t in range(PAWN, KING + 1):
            now = pos.by_color[c] & pos.by_type[t]
            added = now & ~entry.pieces[c][t]
            removed = entry.pieces[c][t] & ~now
            entry.pieces[c][t] = now
            while added:
                sq = bb_lsb(added)
                added &= added - 1
                adds[n_add] = feature_row(net, base, mirror, p, make_piece(c, t), sq)
                n_add += 1
            while removed:
                sq = bb_lsb(removed)
                removed &= removed - 1
                subs[n_sub] = feature_row(net, base, mirror, p, make_piece(c, t), sq)
                n_sub += 1
    acc_sum_rows(entry.acc, entry.acc, adds, n_add, subs, n_sub, net.hidden)
    memcpy(out, entry.acc, net.hidden * sizeof(int16_t))
