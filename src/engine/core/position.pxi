# Position: Zobrist keys, piece placement, make/unmake, attack queries.
#
# Zobrist keys are Polyglot's: the 781 numbers of chess.polyglot, so the key
# of a position equals chess.polyglot.zobrist_hash and book look-ups use it
# directly. Polyglot hashes the en-passant file only when a pawn of the side
# to move stands ready to capture; we store the en-passant square under the
# same rule, so the key follows from the stored state alone.

cdef enum:
    MOVE_NONE = 0
    MOVE_NULL = 65          # from = to = b1: never a legal move
    KIND_NORMAL = 0
    KIND_EP = 5
    KIND_CASTLE = 6

cdef u64 Z_PIECE[16][64]
cdef u64 Z_CASTLE[16]       # indexed by the whole 4-bit rights mask
cdef u64 Z_EP[8]
cdef u64 Z_SIDE             # xored in when white is to move (Polyglot's "turn")

# Incremental evaluation terms; evaluate.pxi fills these tables.
cdef int32_t PSQ_MG[16][64]
cdef int32_t PSQ_EG[16][64]
cdef int32_t PHASE_INC[16]

cdef inline int move_from(Move m) noexcept nogil:
    return m & 63

cdef inline int move_to(Move m) noexcept nogil:
    return (m >> 6) & 63

cdef inline int move_kind(Move m) noexcept nogil:
    return m >> 12

cdef inline Move make_move(int frm, int to, int kind) noexcept nogil:
    return <Move>(frm | (to << 6) | (kind << 12))

cdef inline int is_promotion(Move m) noexcept nogil:
    return 1 <= (m >> 12) <= 4

cdef inline int promo_piece(Move m) noexcept nogil:
    return (m >> 12) + 1

cdef inline int type_of(int pc) noexcept nogil:
    return pc & 7

cdef inline int color_of(int pc) noexcept nogil:
    return pc >> 3

cdef inline int make_piece(int color, int pt) noexcept nogil:
    return pt + 8 * color

cdef inline u64 pieces_of(const Pos *pos, int color, int pt) noexcept nogil:
    return pos.by_type[pt] & pos.by_color[color]

cdef inline int king_sq(const Pos *pos, int color) noexcept nogil:
    return bb_lsb(pos.by_type[KING] & pos.by_color[color])

cdef inline StateInfo *state(Pos *pos) noexcept nogil:
    return &pos.st[pos.sp]

cdef inline u64 checkers(const Pos *pos) noexcept nogil:
    return pos.st[pos.sp].checkers

cdef inline int castle_index(int color, int long_side) noexcept nogil:
    return 2 * color + long_side

cdef inline int castle_king_to(int idx) noexcept nogil:
    # g1, c1, g8, c8
    return (6 if (idx & 1) == 0 else 2) + 56 * (idx >> 1)

cdef inline int castle_rook_to(int idx) noexcept nogil:
    # f1, d1, f8, d8
    return (5 if (idx & 1) == 0 else 3) + 56 * (idx >> 1)

cdef inline void put_piece(Pos *pos, int pc, int sq) noexcept nogil:
    cdef u64 b = sq_bb(sq)
    pos.board[sq] = pc
    pos.by_type[0] |= b
    pos.by_type[type_of(pc)] |= b
    pos.by_color[color_of(pc)] |= b
    pos.psq[0] += PSQ_MG[pc][sq]
    pos.psq[1] += PSQ_EG[pc][sq]
    pos.phase += PHASE_INC[pc]

cdef inline void remove_piece(Pos *pos, int sq) noexcept nogil:
    cdef int pc = pos.board[sq]
    cdef u64 b = sq_bb(sq)
    pos.board[sq] = 0
    pos.by_type[0] ^= b
    pos.by_type[type_of(pc)] ^= b
    pos.by_color[color_of(pc)] ^= b
    pos.psq[0] -= PSQ_MG[pc][sq]
    pos.psq[1] -= PSQ_EG[pc][sq]
    pos.phase -= PHASE_INC[pc]

cdef inline void move_piece(Pos *pos, int frm, int to) noexcept nogil:
    cdef int pc = pos.board[frm]
    cdef u64 b = sq_bb(frm) | sq_bb(to)
    pos.board[frm] = 0
    pos.board[to] = pc
    pos.by_type[0] ^= b
    pos.by_type[type_of(pc)] ^= b
    pos.by_color[color_of(pc)] ^= b
    pos.psq[0] += PSQ_MG[pc][to] - PSQ_MG[pc][frm]
    pos.psq[1] += PSQ_EG[pc][to] - PSQ_EG[pc][frm]

cdef inline u64 attackers_to(const Pos *pos, int sq, u64 occ) noexcept nogil:
    """Pieces of both colours that attack sq, given the occupancy occ."""
    return ((PAWN_ATT[BLACK][sq] & pieces_of(pos, WHITE, PAWN))
            | (PAWN_ATT[WHITE][sq] & pieces_of(pos, BLACK, PAWN))
            | (KNIGHT_ATT[sq] & pos.by_type[KNIGHT])
            | (KING_ATT[sq] & pos.by_type[KING])
            | (bishop_attacks(sq, occ) & (pos.by_type[BISHOP] | pos.by_type[QUEEN]))
            | (rook_attacks(sq, occ) & (pos.by_type[ROOK] | pos.by_type[QUEEN])))

cdef inline bint sq_attacked(const Pos *pos, int sq, int by, u64 occ) noexcept nogil:
    cdef u64 them = pos.by_color[by]
    if PAWN_ATT[by ^ 1][sq] & pos.by_type[PAWN] & them:
        return True
    if KNIGHT_ATT[sq] & pos.by_type[KNIGHT] & them:
        return True
    if KING_ATT[sq] & pos.by_type[KING] & them:
        return True
    if bishop_attacks(sq, occ) & (pos.by_type[BISHOP] | pos.by_type[QUEEN]) & them:
        return True
    return (rook_attacks(sq, occ) & (pos.by_type[ROOK] | pos.by_type[QUEEN]) & them) != 0

cdef inline void set_ep_if_capturable(Pos *pos, StateInfo *st, int ep_sq, int capturer) noexcept nogil:
    if PAWN_ATT[capturer ^ 1][ep_sq] & pieces_of(pos, capturer, PAWN):
        st.ep = ep_sq
        st.key ^= Z_EP[file_of(ep_sq)]

cdef void do_move(Pos *pos, Move m) noexcept nogil:
    """Play a legal move; undo_move(pos, m) takes it back exactly."""
    cdef StateInfo *old = &pos.st[pos.sp]
    cdef StateInfo *st = old + 1
    cdef int us = pos.side, them = us ^ 1
    cdef int frm = move_from(m), to = move_to(m), kind = move_kind(m)
    cdef int pc = pos.board[frm], captured = 0, cap_sq, idx, kto, rto
    cdef u64 key = old.key ^ Z_SIDE
    cdef u64 pawn_key = old.pawn_key
    cdef u64 np_us = old.nonpawn_key[us], np_them = old.nonpawn_key[them]
    pos.sp += 1
    st.halfmove = old.halfmove + 1
    st.plies_from_null = old.plies_from_null + 1
    st.move = m
    st.ep = NO_SQ
    if old.ep != NO_SQ:
        key ^= Z_EP[file_of(old.ep)]

    if kind == KIND_CASTLE:
        idx = castle_index(us, 1 if to < frm else 0)
        kto = castle_king_to(idx)
        rto = castle_rook_to(idx)
        # Lift both before placing either: in Chess960 a target square may be
        # the other piece's origin.
        remove_piece(pos, frm)
        remove_piece(pos, to)
        put_piece(pos, make_piece(us, KING), kto)
        put_piece(pos, make_piece(us, ROOK), rto)
        key ^= Z_PIECE[make_piece(us, KING)][frm] ^ Z_PIECE[make_piece(us, KING)][kto]
        key ^= Z_PIECE[make_piece(us, ROOK)][to] ^ Z_PIECE[make_piece(us, ROOK)][rto]
        pawn_key ^= Z_PIECE[make_piece(us, KING)][frm] ^ Z_PIECE[make_piece(us, KING)][kto]
        np_us ^= Z_PIECE[make_piece(us, KING)][frm] ^ Z_PIECE[make_piece(us, KING)][kto]
        np_us ^= Z_PIECE[make_piece(us, ROOK)][to] ^ Z_PIECE[make_piece(us, ROOK)][rto]
    else:
        if kind == KIND_EP:
            cap_sq = to - 8 if us == WHITE else to + 8
        else:
            cap_sq = to
        captured = pos.board[cap_sq]
        if captured:
            remove_piece(pos, cap_sq)
            key ^= Z_PIECE[captured][cap_sq]
            if type_of(captured) == PAWN:
                pawn_key ^= Z_PIECE[captured][cap_sq]
            else:
                np_them ^= Z_PIECE[captured][cap_sq]
            st.halfmove = 0
        move_piece(pos, frm, to)
        key ^= Z_PIECE[pc][frm] ^ Z_PIECE[pc][to]
        if type_of(pc) == PAWN:
            st.halfmove = 0
            pawn_key ^= Z_PIECE[pc][frm] ^ Z_PIECE[pc][to]
            if (frm ^ to) == 16:
                st.key = key
                set_ep_if_capturable(pos, st, (frm + to) >> 1, them)
                key = st.key
            elif kind != KIND_NORMAL and kind != KIND_EP:
                remove_piece(pos, to)
                put_piece(pos, make_piece(us, promo_piece(m)), to)
                key ^= Z_PIECE[pc][to] ^ Z_PIECE[make_piece(us, promo_piece(m))][to]
                pawn_key ^= Z_PIECE[pc][to]
                np_us ^= Z_PIECE[make_piece(us, promo_piece(m))][to]
        else:
            np_us ^= Z_PIECE[pc][frm] ^ Z_PIECE[pc][to]
            if type_of(pc) == KING:
                pawn_key ^= Z_PIECE[pc][frm] ^ Z_PIECE[pc][to]

    st.castle = old.castle & pos.castle_mask[frm] & pos.castle_mask[to]
    if st.castle != old.castle:
        key ^= Z_CASTLE[old.castle] ^ Z_CASTLE[st.castle]
    st.captured = captured
    st.key = key
    st.pawn_key = pawn_key
    st.nonpawn_key[us] = np_us
    st.nonpawn_key[them] = np_them
    pos.side = them
    if us == BLACK:
        pos.fullmove += 1
    st.checkers = attackers_to(pos, king_sq(pos, them), pos.by_type[0]) & pos.by_color[us]
    if pos.nnue != NULL:        # NNUE in use: note the changed features
        nnue_record_move(pos, m, pc, captured)

cdef void undo_move(Pos *pos, Move m) noexcept nogil:
    cdef StateInfo *st = &pos.st[pos.sp]
    cdef int us = pos.side ^ 1
    cdef int frm = move_from(m), to = move_to(m), kind = move_kind(m), idx
    pos.side = us
    if us == BLACK:
        pos.fullmove -= 1
    if kind == KIND_CASTLE:
        idx = castle_index(us, 1 if to < frm else 0)
        remove_piece(pos, castle_king_to(idx))
        remove_piece(pos, castle_rook_to(idx))
        put_piece(pos, make_piece(us, KING), frm)
        put_piece(pos, make_piece(us, ROOK), to)
    else:
        if kind != KIND_NORMAL and kind != KIND_EP:
            remove_piece(pos, to)
            put_piece(pos, make_piece(us, PAWN), to)
        move_piece(pos, to, frm)
        if st.captured:
            if kind == KIND_EP:
                put_piece(pos, st.captured, to - 8 if us == WHITE else to + 8)
            else:
                put_piece(pos, st.captured, to)
    pos.sp -= 1

cdef void do_null_move(Pos *pos) noexcept nogil:
    cdef StateInfo *old = &pos.st[pos.sp]
    cdef StateInfo *st = old + 1
    pos.sp += 1
    st.key = old.key ^ Z_SIDE
    if old.ep != NO_SQ:
        st.key ^= Z_EP[file_of(old.ep)]
    st.pawn_key = old.pawn_key
    st.nonpawn_key[0] = old.nonpawn_key[0]
    st.nonpawn_key[1] = old.nonpawn_key[1]
    st.checkers = 0
    st.halfmove = old.halfmove + 1
    st.plies_from_null = 0
    st.castle = old.castle
    st.ep = NO_SQ
    st.captured = 0
    st.move = MOVE_NULL
    pos.side ^= 1
    if pos.nnue != NULL:
        nnue_record_null(pos)

cdef void undo_null_move(Pos *pos) noexcept nogil:
    pos.sp -= 1
    pos.side ^= 1

cdef bint is_repetition(const Pos *pos, int count) noexcept nogil:
    """True when the current position occurred `count` times before (same key),
    within the reversible plies since the last capture, pawn move or null move."""
    cdef const StateInfo *st = &pos.st[pos.sp]
    cdef int back = st.halfmove if st.halfmove < st.plies_from_null else st.plies_from_null
    cdef int i = 4, seen = 0
    if back > pos.sp:
        back = pos.sp
    while i <= back:
        if pos.st[pos.sp - i].key == st.key:
            seen += 1
            if seen >= count:
                return True
        i += 2
    return False

cdef bint insufficient_material(const Pos *pos) noexcept nogil:
    """Neither side can mate by any sequence of legal moves: K vs K, K+minor vs K,
    and bishops all on one colour of square (FIDE dead positions of that kind)."""
    cdef u64 light = 0x55AA55AA55AA55AAULL
    if pos.by_type[PAWN] | pos.by_type[ROOK] | pos.by_type[QUEEN]:
        return False
    if bb_count(pos.by_type[0]) <= 3:
        return True
    if pos.by_type[KNIGHT]:
        return False
    return (pos.by_type[BISHOP] & light) == 0 or (pos.by_type[BISHOP] & ~light) == 0

cdef void compute_keys(Pos *pos) noexcept nogil:
    """Full Zobrist keys from scratch (set-up and checks; make/unmake are incremental)."""
    cdef StateInfo *st = &pos.st[pos.sp]
    cdef int sq, pc
    st.key = 0
    st.pawn_key = 0
    st.nonpawn_key[0] = st.nonpawn_key[1] = 0
    for sq in range(64):
        pc = pos.board[sq]
        if pc:
            st.key ^= Z_PIECE[pc][sq]
            if type_of(pc) == PAWN or type_of(pc) == KING:
                st.pawn_key ^= Z_PIECE[pc][sq]
            if type_of(pc) != PAWN:
                st.nonpawn_key[color_of(pc)] ^= Z_PIECE[pc][sq]
    st.key ^= Z_CASTLE[st.castle]
    if st.ep != NO_SQ:
        st.key ^= Z_EP[file_of(st.ep)]
    if pos.side == WHITE:
        st.key ^= Z_SIDE

cdef void init_zobrist():
    """Copy Polyglot's random numbers (python-chess) into the C tables."""
    from chess.polyglot import POLYGLOT_RANDOM_ARRAY as R
    cdef int pt, color, sq, mask, kind
    for pt in range(16):
        for sq in range(64):
            Z_PIECE[pt][sq] = 0
    for color in range(2):
        for pt in range(PAWN, KING + 1):
            # Polyglot piece order: black pawn, white pawn, black knight, ...
            kind = 2 * (pt - 1) + (1 if color == WHITE else 0)
            for sq in range(64):
                Z_PIECE[make_piece(color, pt)][sq] = R[64 * kind + sq]
    for mask in range(16):
        Z_CASTLE[mask] = 0
        for kind in range(4):
            if mask & (1 << kind):
                Z_CASTLE[mask] ^= R[768 + kind]
    for sq in range(8):
        Z_EP[sq] = R[772 + sq]
    global Z_SIDE
    Z_SIDE = R[780]
