# NNUE accumulators kept in step with make/unmake (Stockfish's lazy scheme,
# "efficiently updatable" in Nasu's paper): do_move only records which
# features change (nnue_record_move, a few byte stores, and nothing at all
# when pos.nnue is NULL); an evaluation brings its slot up to date from the
# nearest computed parent, each perspective on its own. undo_move needs
# nothing: the parent's slot is still valid. A slot outside the window
# [base, base + NNUE_SLOTS), or a king move that changes its side's king
# bucket or mirror (core/nnue/king.pxi), costs that perspective a refresh,
# through the refresh table when the network has king buckets.

cdef inline NnueSlot *nnue_slot(NnueStack *stk, int sp) noexcept nogil:
    cdef int i = sp - stk.base
    if i < 0 or i >= NNUE_SLOTS:
        return NULL
    return &stk.slots[i]

cdef void nnue_invalidate(NnueStack *stk, int sp) noexcept nogil:
    """Forget every slot (new position, other network); slot 0 is state sp."""
    cdef int i
    stk.base = sp
    for i in range(NNUE_SLOTS):
        stk.slots[i].computed = 0

cdef int nnue_stack_fit(NnueStack *stk, const NnueNet *net, int sp) noexcept nogil:
    """Make the stack's memory (and refresh table) fit net; -1 when out of memory."""
    cdef int i
    cdef int16_t *mem
    cdef bint fresh = stk.hidden != net.hidden or stk.memory == NULL
    if fresh:
        mem = <int16_t *>aligned_alloc(64, <size_t>NNUE_SLOTS * 2 * net.hidden * sizeof(int16_t))
        if mem == NULL:
            return -1
        free(stk.memory)
        stk.memory = mem
        stk.hidden = net.hidden
        for i in range(NNUE_SLOTS):
            stk.slots[i].acc = mem + <size_t>i * 2 * net.hidden
    if nnue_finny_fit(stk, net, fresh) != 0:
        return -1
    stk.generation = net.generation
    nnue_invalidate(stk, sp)
    return 0

cdef void nnue_stack_free(NnueStack *stk) noexcept nogil:
    free(stk.memory)
    free(stk.finny_memory)
    stk.memory = NULL
    stk.finny_memory = NULL
    stk.finny_count = 0
    stk.hidden = 0

# ---------------------------------------------------------------- deltas

cdef inline void delta_add(NnueDelta *d, int pc, int sq) noexcept nogil:
    d.add_pc[d.n_add] = pc
    d.add_sq[d.n_add] = sq
    d.n_add += 1

cdef inline void delta_sub(NnueDelta *d, int pc, int sq) noexcept nogil:
    d.sub_pc[d.n_sub] = pc
    d.sub_sq[d.n_sub] = sq
    d.n_sub += 1

cdef inline void delta_kings(const Pos *pos, NnueDelta *d) noexcept nogil:
    """The kings after the move, read only by a network with king buckets
    (king_base ignores them otherwise), so do_move skips them for the rest."""
    d.refresh = 0
    if pos.nnue.mirrored:
        d.king_sq[WHITE] = king_sq(pos, WHITE)
        d.king_sq[BLACK] = king_sq(pos, BLACK)

cdef inline bint king_context_changes(const NnueStack *stk, int us, int frm, int to) noexcept nogil:
    """Does a king of `us` going frm -> to change its perspective's bucket or mirror?"""
    cdef int m0, m1
    if not stk.mirrored:
        return False
    return (king_base(stk.king_bucket, True, us, frm, &m0) != king_base(stk.king_bucket, True, us, to, &m1)
            or m0 != m1)

cdef void nnue_record_move(Pos *pos, Move m, int pc, int captured) noexcept nogil:
    """Called by do_move after the move (pos.sp is the new state): which pieces
    left and entered which squares. pc is the moving piece, captured the
    piece taken (0 = none); the mover is the side not to move now."""
    cdef NnueSlot *slot = nnue_slot(pos.nnue, pos.sp)
    cdef NnueDelta *d
    cdef int us = pos.side ^ 1, frm = move_from(m), to = move_to(m), kind = move_kind(m), idx
    if slot == NULL:
        return
    slot.computed = 0
    d = &slot.delta
    d.n_add = 0
    d.n_sub = 0
    delta_kings(pos, d)
    if kind == KIND_CASTLE:
        idx = castle_index(us, 1 if to < frm else 0)
        delta_sub(d, make_piece(us, KING), frm)
        delta_sub(d, make_piece(us, ROOK), to)
        delta_add(d, make_piece(us, KING), castle_king_to(idx))
        delta_add(d, make_piece(us, ROOK), castle_rook_to(idx))
        if king_context_changes(pos.nnue, us, frm, castle_king_to(idx)):
            d.refresh = 1 << us
        return
    if type_of(pc) == KING and king_context_changes(pos.nnue, us, frm, to):
        d.refresh = 1 << us
    delta_sub(d, pc, frm)
    delta_add(d, make_piece(us, promo_piece(m)) if is_promotion(m) else pc, to)
    if captured:
        if kind == KIND_EP:
            delta_sub(d, captured, to - 8 if us == WHITE else to + 8)
        else:
            delta_sub(d, captured, to)

cdef void nnue_record_null(Pos *pos) noexcept nogil:
    """A null move changes no feature: its slot is a copy of the parent's."""
    cdef NnueSlot *slot = nnue_slot(pos.nnue, pos.sp)
    if slot != NULL:
        slot.computed = 0
        slot.delta.n_add = 0
        slot.delta.n_sub = 0
        delta_kings(pos, &slot.delta)

# ---------------------------------------------------------------- updates

cdef void nnue_apply_one(const NnueNet *net, const NnueDelta *d, int p, const int16_t *src,
                         int16_t *out) noexcept nogil:
    """Perspective p's half after the delta, from its half before it (the
    delta must not ask p for a refresh: its king bucket and mirror are then
    the same before and after, read from the kings after the move)."""
    cdef int i, mirror, h = net.hidden
    cdef int base = king_base(net.king_bucket, net.mirrored, p, d.king_sq[p], &mirror)
    cdef const int16_t *adds[2]
    cdef const int16_t *subs[2]
    for i in range(d.n_add):
        adds[i] = feature_row(net, base, mirror, p, d.add_pc[i], d.add_sq[i])
    for i in range(d.n_sub):
        subs[i] = feature_row(net, base, mirror, p, d.sub_pc[i], d.sub_sq[i])
    if NNUE_SIMD_ON:
        # Constant counts for the usual shapes, so the inlined sum is
        # unrolled for them: a quiet move, a capture, castling.
        if d.n_add == 1 and d.n_sub == 1:
            vireo_acc_sum(out, src, adds, 1, subs, 1, h)
        elif d.n_add == 1 and d.n_sub == 2:
            vireo_acc_sum(out, src, adds, 1, subs, 2, h)
        elif d.n_add == 2 and d.n_sub == 2:
            vireo_acc_sum(out, src, adds, 2, subs, 2, h)
        else:
            vireo_acc_sum(out, src, adds, d.n_add, subs, d.n_sub, h)
    elif d.n_add == 0:                  # null move
        memcpy(out, src, h * sizeof(int16_t))
    elif d.n_sub == 1:
        acc_add_sub(out, src, adds[0], subs[0], h)
    elif d.n_add == 1:
        acc_add_sub_sub(out, src, adds[0], subs[0], subs[1], h)
    else:
        acc_add_rows(out, src, adds[0], adds[1], subs[0], subs[1], h)

cdef void nnue_apply(const NnueNet *net, const NnueDelta *d, const int16_t *src, int16_t *out) noexcept nogil:
    """Both halves by one delta (the kernel timer's unit of work)."""
    nnue_apply_one(net, d, WHITE, src, out)
    nnue_apply_one(net, d, BLACK, src + net.hidden, out + net.hidden)

cdef int16_t *nnue_accumulator(Pos *pos, const NnueNet *net) noexcept nogil:
    """The current state's accumulator, brought up to date lazily, each
    perspective on its own: walk back to the nearest slot where it is
    computed and apply the deltas forward, or refresh it where a king move
    (or the window's start) leaves nothing to start from."""
    cdef NnueStack *stk = pos.nnue
    cdef int top = pos.sp - stk.base, i, p, bit, h = net.hidden
    if top < 0 or top >= NNUE_SLOTS:
        nnue_invalidate(stk, pos.sp)
        top = 0
    if stk.slots[top].computed == 3:
        return stk.slots[top].acc
    for p in range(2):
        bit = 1 << p
        if stk.slots[top].computed & bit:
            continue
        i = top
        while i > 0 and not (stk.slots[i].computed & bit) and not (stk.slots[i].delta.refresh & bit):
            i -= 1
        if not (stk.slots[i].computed & bit):
            # Only the current state is refreshed; the parents need not be.
            nnue_refresh_cached(stk, pos, net, p, stk.slots[top].acc + p * h)
            stk.refreshes += 1
        else:
            while i < top:
                nnue_apply_one(net, &stk.slots[i + 1].delta, p, stk.slots[i].acc + p * h,
                               stk.slots[i + 1].acc + p * h)
                stk.slots[i + 1].computed |= bit
                stk.updates += 1
                i += 1
        stk.slots[top].computed |= bit
    return stk.slots[top].acc
