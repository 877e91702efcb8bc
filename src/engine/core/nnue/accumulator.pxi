# NNUE accumulators kept in step with make/unmake (Stockfish's lazy scheme,
# "efficiently updatable" in Nasu's paper): do_move only records which
# features change (nnue_record_move, a few byte stores, and nothing at all
# when pos.nnue is NULL); an evaluation brings its slot up to date from the
# nearest computed parent. undo_move needs nothing: the parent's slot is
# still valid. A slot outside the window [base, base + NNUE_SLOTS) or a
# delta marked `refresh` costs one full refresh (with 768 plain features
# only the window forces it; king buckets would set `refresh`).

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
    """Make the stack's memory fit net; -1 when out of memory."""
    cdef int i
    cdef int16_t *mem
    if stk.hidden != net.hidden or stk.memory == NULL:
        mem = <int16_t *>aligned_alloc(64, <size_t>NNUE_SLOTS * 2 * net.hidden * sizeof(int16_t))
        if mem == NULL:
            return -1
        free(stk.memory)
        stk.memory = mem
        stk.hidden = net.hidden
        for i in range(NNUE_SLOTS):
            stk.slots[i].acc = mem + <size_t>i * 2 * net.hidden
    stk.generation = net.generation
    nnue_invalidate(stk, sp)
    return 0

cdef void nnue_stack_free(NnueStack *stk) noexcept nogil:
    free(stk.memory)
    stk.memory = NULL
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
    d.refresh = 0
    if kind == KIND_CASTLE:
        idx = castle_index(us, 1 if to < frm else 0)
        delta_sub(d, make_piece(us, KING), frm)
        delta_sub(d, make_piece(us, ROOK), to)
        delta_add(d, make_piece(us, KING), castle_king_to(idx))
        delta_add(d, make_piece(us, ROOK), castle_rook_to(idx))
        return
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
        slot.delta.refresh = 0

# ---------------------------------------------------------------- updates
# Plain int16 loops over H (a multiple of 16) that GCC vectorizes at -O3
# (checked in the generated C with -fopt-info-vec). int16 additions wrap,
# exactly as the reference's numpy int16 sums, so the order of additions
# never changes the result.

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

cdef void nnue_refresh(const Pos *pos, const NnueNet *net, int16_t *acc) noexcept nogil:
    """Both perspectives from scratch: bias plus the row of every piece."""
    cdef int p, sq, h = net.hidden
    cdef u64 occ
    for p in range(2):
        memcpy(acc + p * h, net.bias, h * sizeof(int16_t))
        occ = pos.by_type[0]
        while occ:
            sq = bb_lsb(occ)
            occ &= occ - 1
            acc_add_row(acc + p * h, net.weights + <size_t>NNUE_FEATURE[p][pos.board[sq]][sq] * h, h)

cdef void nnue_apply(const NnueNet *net, const NnueDelta *d, const int16_t *src, int16_t *out) noexcept nogil:
    cdef int p, h = net.hidden
    cdef const int16_t *w = net.weights
    cdef const int16_t *a0
    cdef const int16_t *a1
    cdef const int16_t *s0
    cdef const int16_t *s1
    for p in range(2):
        if d.n_add == 0:            # null move
            memcpy(out + p * h, src + p * h, h * sizeof(int16_t))
            continue
        a0 = w + <size_t>NNUE_FEATURE[p][d.add_pc[0]][d.add_sq[0]] * h
        s0 = w + <size_t>NNUE_FEATURE[p][d.sub_pc[0]][d.sub_sq[0]] * h
        if d.n_sub == 1:
            acc_add_sub(out + p * h, src + p * h, a0, s0, h)
            continue
        s1 = w + <size_t>NNUE_FEATURE[p][d.sub_pc[1]][d.sub_sq[1]] * h
        if d.n_add == 1:
            acc_add_sub_sub(out + p * h, src + p * h, a0, s0, s1, h)
        else:
            a1 = w + <size_t>NNUE_FEATURE[p][d.add_pc[1]][d.add_sq[1]] * h
            acc_add_rows(out + p * h, src + p * h, a0, a1, s0, s1, h)

cdef int16_t *nnue_accumulator(Pos *pos, const NnueNet *net) noexcept nogil:
    """The current state's accumulator, brought up to date lazily: walk back
    to the nearest computed slot (or refresh), then apply the deltas forward."""
    cdef NnueStack *stk = pos.nnue
    cdef int top = pos.sp - stk.base, i
    if top < 0 or top >= NNUE_SLOTS:
        nnue_invalidate(stk, pos.sp)
        top = 0
    if stk.slots[top].computed:
        return stk.slots[top].acc
    i = top
    while i > 0 and not stk.slots[i].computed and not stk.slots[i].delta.refresh:
        i -= 1
    if not stk.slots[i].computed:
        # Nothing to start from (or the feature set demands it): refresh the
        # current state only; its parents need not be computed.
        nnue_refresh(pos, net, stk.slots[top].acc)
        stk.slots[top].computed = 1
        return stk.slots[top].acc
    while i < top:
        nnue_apply(net, &stk.slots[i + 1].delta, stk.slots[i].acc, stk.slots[i + 1].acc)
        stk.slots[i + 1].computed = 1
        i += 1
    return stk.slots[top].acc
