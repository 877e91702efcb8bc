# Legal move generation.
#
# Moves are legal by construction, so neither perft nor search tests moves
# after generating them: a check mask restricts non-king moves to capturing
# the checker or blocking its ray, pinned pieces stay on the line through
# their king, and king moves are tested against the attacks with the king
# lifted off the board. En passant, the one move that can uncover a check
# along a rank, gets a full occupancy test.

cdef enum:
    GEN_NOISY = 1   # captures and promotions (all four pieces)
    GEN_QUIET = 2   # everything else, castling included
    GEN_ALL = 3

cdef inline void add_move(MoveList *ml, Move m) noexcept nogil:
    ml.moves[ml.count] = m
    ml.count += 1

cdef inline void add_promotions(MoveList *ml, int frm, int to) noexcept nogil:
    cdef int kind
    for kind in range(4, 0, -1):     # queen first
        add_move(ml, make_move(frm, to, kind))

cdef inline void add_targets(MoveList *ml, int frm, u64 targets) noexcept nogil:
    while targets:
        add_move(ml, make_move(frm, bb_pop(&targets), KIND_NORMAL))

cdef inline void add_pawn_set(MoveList *ml, u64 targets, int delta, bint promote) noexcept nogil:
    cdef int to
    while targets:
        to = bb_pop(&targets)
        if promote:
            add_promotions(ml, to - delta, to)
        else:
            add_move(ml, make_move(to - delta, to, KIND_NORMAL))

cdef u64 pinned_pieces(const Pos *pos, int us, int ksq) noexcept nogil:
    """Pieces of `us` that stand alone between their king and an enemy slider."""
    cdef int them = us ^ 1
    cdef u64 occ = pos.by_type[0], pinned = 0, between
    cdef u64 snipers = ((rook_attacks(ksq, pos.by_color[them]) & (pos.by_type[ROOK] | pos.by_type[QUEEN]))
                        | (bishop_attacks(ksq, pos.by_color[them]) & (pos.by_type[BISHOP] | pos.by_type[QUEEN]))) \
                       & pos.by_color[them]
    while snipers:
        between = BETWEEN[ksq][bb_pop(&snipers)] & occ
        if between and (between & (between - 1)) == 0 and (between & pos.by_color[us]):
            pinned |= between
    return pinned

cdef void gen_pawn_moves(const Pos *pos, MoveList *ml, int gen, u64 pawns, u64 checkmask) noexcept nogil:
    """Set-wise pawn moves (pushes, captures, promotions) of unpinned pawns."""
    cdef int us = pos.side, them = us ^ 1
    cdef int up = 8 if us == WHITE else -8
    cdef u64 empty = ~pos.by_type[0]
    cdef u64 enemy = pos.by_color[them]
    cdef u64 rank7 = (RANK_8 >> 8) if us == WHITE else (RANK_1 << 8)
    cdef u64 rank3 = (RANK_1 << 16) if us == WHITE else (RANK_8 >> 16)
    cdef u64 promo = pawns & rank7
    cdef u64 plain = pawns & ~rank7
    cdef u64 single, double, left, right
    if gen & GEN_QUIET:
        single = shift_up(plain, us) & empty
        double = shift_up(single & rank3, us) & empty
        add_pawn_set(ml, single & checkmask, up, False)
        add_pawn_set(ml, double & checkmask, 2 * up, False)
    if gen & GEN_NOISY:
        # "left" captures toward the a-file, "right" toward the h-file.
        left = shift_up(plain & ~FILE_A, us) >> 1
        right = shift_up(plain & ~FILE_H, us) << 1
        add_pawn_set(ml, left & enemy & checkmask, up - 1, False)
        add_pawn_set(ml, right & enemy & checkmask, up + 1, False)
        if promo:
            add_pawn_set(ml, shift_up(promo, us) & empty & checkmask, up, True)
            add_pawn_set(ml, (shift_up(promo & ~FILE_A, us) >> 1) & enemy & checkmask, up - 1, True)
            add_pawn_set(ml, (shift_up(promo & ~FILE_H, us) << 1) & enemy & checkmask, up + 1, True)

cdef void gen_pinned_pawn(const Pos *pos, MoveList *ml, int gen, int frm, u64 mask) noexcept nogil:
    """Moves of one pinned pawn; mask = check mask & pin line."""
    cdef int us = pos.side
    cdef int up = 8 if us == WHITE else -8
    cdef u64 occ = pos.by_type[0]
    cdef u64 targets = 0
    cdef int to, last = (7 if us == WHITE else 0)
    if gen & GEN_NOISY:
        targets |= PAWN_ATT[us][frm] & pos.by_color[us ^ 1]
    if not (occ & sq_bb(frm + up)):
        if gen & GEN_QUIET or rank_of(frm + up) == last:
            targets |= sq_bb(frm + up)
        if (gen & GEN_QUIET) and rank_of(frm) == (1 if us == WHITE else 6) \
                and not (occ & sq_bb(frm + 2 * up)):
            targets |= sq_bb(frm + 2 * up)
    targets &= mask
    while targets:
        to = bb_pop(&targets)
        if rank_of(to) == last:
            if (to - frm) != up or (gen & GEN_NOISY):
                add_promotions(ml, frm, to)
        elif (to - frm) == up or (to - frm) == 2 * up:
            if gen & GEN_QUIET:
                add_move(ml, make_move(frm, to, KIND_NORMAL))
        else:
            add_move(ml, make_move(frm, to, KIND_NORMAL))

cdef void gen_en_passant(const Pos *pos, MoveList *ml, int ksq) noexcept nogil:
    cdef StateInfo *st = <StateInfo *>&pos.st[pos.sp]
    cdef int us = pos.side, them = us ^ 1, frm
    cdef int ep = st.ep
    cdef int cap_sq = ep - 8 if us == WHITE else ep + 8
    cdef u64 occ
    cdef u64 capturers = PAWN_ATT[them][ep] & pieces_of(pos, us, PAWN)
    while capturers:
        frm = bb_pop(&capturers)
        occ = (pos.by_type[0] ^ sq_bb(frm) ^ sq_bb(cap_sq)) | sq_bb(ep)
        if st.checkers & ~sq_bb(cap_sq) & ~(pos.by_type[ROOK] | pos.by_type[BISHOP] | pos.by_type[QUEEN]):
            continue   # a knight (or a pawn other than the captured one) gives check
        if rook_attacks(ksq, occ) & (pos.by_type[ROOK] | pos.by_type[QUEEN]) & pos.by_color[them]:
            continue
        if bishop_attacks(ksq, occ) & (pos.by_type[BISHOP] | pos.by_type[QUEEN]) & pos.by_color[them]:
            continue
        add_move(ml, make_move(frm, ep, KIND_EP))

cdef void gen_castling(const Pos *pos, MoveList *ml, int ksq) noexcept nogil:
    cdef const StateInfo *st = &pos.st[pos.sp]
    cdef int us = pos.side, idx, side, rsq
    cdef u64 occ, path
    for side in range(2):
        idx = castle_index(us, side)
        if not (st.castle & (1 << idx)):
            continue
        rsq = pos.castle_rook[idx]
        if pos.castle_path[idx] & pos.by_type[0]:
            continue
        # The castling rook may shield the king's path (Chess960): test the
        # path with it lifted.
        occ = pos.by_type[0] ^ sq_bb(rsq)
        path = pos.king_path[idx]
        while path:
            if sq_attacked(pos, bb_pop(&path), us ^ 1, occ):
                break
        else:
            add_move(ml, make_move(ksq, rsq, KIND_CASTLE))

cdef void gen_legal(const Pos *pos, MoveList *ml, int gen) noexcept nogil:
    """Append the legal moves of kind `gen` (GEN_NOISY, GEN_QUIET or GEN_ALL)."""
    cdef int us = pos.side, them = us ^ 1
    cdef int ksq = king_sq(pos, us), frm, to
    cdef u64 occ = pos.by_type[0]
    cdef u64 own = pos.by_color[us], enemy = pos.by_color[them]
    cdef u64 chk = pos.st[pos.sp].checkers
    cdef u64 targets, checkmask, pinned, b, occ_noking
    cdef u64 gen_mask = 0
    if gen & GEN_NOISY:
        gen_mask |= enemy
    if gen & GEN_QUIET:
        gen_mask |= ~occ

    # King moves, tested with the king lifted so it cannot hide behind itself.
    occ_noking = occ ^ sq_bb(ksq)
    targets = KING_ATT[ksq] & ~own & gen_mask
    while targets:
        to = bb_pop(&targets)
        if not sq_attacked(pos, to, them, occ_noking):
            add_move(ml, make_move(ksq, to, KIND_NORMAL))
    if chk and (chk & (chk - 1)):
        return      # double check: only the king moves

    checkmask = (BETWEEN[ksq][bb_lsb(chk)] | chk) if chk else ~0ULL
    pinned = pinned_pieces(pos, us, ksq)

    # Pawns
    gen_pawn_moves(pos, ml, gen, pieces_of(pos, us, PAWN) & ~pinned, checkmask)
    b = pieces_of(pos, us, PAWN) & pinned
    while b:
        frm = bb_pop(&b)
        gen_pinned_pawn(pos, ml, gen, frm, checkmask & LINE[ksq][frm])
    if (gen & GEN_NOISY) and pos.st[pos.sp].ep != NO_SQ:
        gen_en_passant(pos, ml, ksq)

    # Knights: a pinned knight never moves.
    b = pieces_of(pos, us, KNIGHT) & ~pinned
    while b:
        frm = bb_pop(&b)
        add_targets(ml, frm, KNIGHT_ATT[frm] & gen_mask & checkmask)

    # Sliders: a pinned one stays on its pin line.
    b = (pos.by_type[BISHOP] | pos.by_type[QUEEN]) & own
    while b:
        frm = bb_pop(&b)
        targets = bishop_attacks(frm, occ) & gen_mask & checkmask
        if pinned & sq_bb(frm):
            targets &= LINE[ksq][frm]
        add_targets(ml, frm, targets)
    b = (pos.by_type[ROOK] | pos.by_type[QUEEN]) & own
    while b:
        frm = bb_pop(&b)
        targets = rook_attacks(frm, occ) & gen_mask & checkmask
        if pinned & sq_bb(frm):
            targets &= LINE[ksq][frm]
        add_targets(ml, frm, targets)

    if (gen & GEN_QUIET) and not chk:
        gen_castling(pos, ml, ksq)

cdef bint move_is_legal(const Pos *pos, Move m) noexcept nogil:
    """Whether m is a legal move here (for moves from the TT or killers)."""
    cdef MoveList ml
    cdef int i
    if m == MOVE_NONE or m == MOVE_NULL:
        return False
    ml.count = 0
    gen_legal(pos, &ml, GEN_ALL)
    for i in range(ml.count):
        if ml.moves[i] == m:
            return True
    return False
