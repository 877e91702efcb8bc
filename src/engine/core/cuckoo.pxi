# Upcoming repetition: can the side to move repeat an earlier position with
# its next move? If so, and that position lies inside the search tree, the
# node is worth at least a draw before any move is searched.
#
# Two positions an odd number of plies apart that differ by one piece on
# one square pair (and the side to move) are one reversible move apart. The
# Zobrist difference of such a pair is Z_PIECE[pc][s1] ^ Z_PIECE[pc][s2] ^
# Z_SIDE; the 3,668 possible ones (pieces other than pawns, all squares
# they reach on an empty board, one direction) are kept in a cuckoo hash
# table, so one XOR and at most two lookups test each earlier position.
# The method is Marcel van Kervinck's (2013, "cuckoo" cycle detection), as
# Stockfish uses it; a found move is checked for a clear path and for the
# mover's colour, not for legality, which errs toward a draw in rare pinned
# or checked lines.

from libc.string cimport memset

cdef enum:
    CUCKOO_SIZE = 8192          # a power of two; 3,668 keys
    CUCKOO_KEYS_EXPECTED = 3668

cdef u64 CUCKOO_KEYS[CUCKOO_SIZE]
cdef Move CUCKOO_MOVES[CUCKOO_SIZE]
cdef int CUCKOO_COUNT = 0

# 1: a node whose side to move can repeat a position of the tree scores at
# least a draw (search and quiescence); 0: off.
cdef int UPCOMING_REP = 1

cdef inline int cuckoo_h1(u64 key) noexcept nogil:
    return <int>(key & (CUCKOO_SIZE - 1))

cdef inline int cuckoo_h2(u64 key) noexcept nogil:
    return <int>((key >> 16) & (CUCKOO_SIZE - 1))

cdef void init_cuckoo():
    """After init_bitboards and init_zobrist: every reversible move's key."""
    global CUCKOO_COUNT
    cdef int color, pt, pc, s1, s2, slot
    cdef u64 key, k2
    cdef Move m, m2
    memset(CUCKOO_KEYS, 0, sizeof(CUCKOO_KEYS))
    memset(CUCKOO_MOVES, 0, sizeof(CUCKOO_MOVES))
    CUCKOO_COUNT = 0
    for color in range(2):
        for pt in range(KNIGHT, KING + 1):
            pc = make_piece(color, pt)
            for s1 in range(64):
                for s2 in range(s1 + 1, 64):
                    if not (piece_attacks(pt, s1, 0) & sq_bb(s2)):
                        continue
                    key = Z_PIECE[pc][s1] ^ Z_PIECE[pc][s2] ^ Z_SIDE
                    m = make_move(s1, s2, KIND_NORMAL)
                    slot = cuckoo_h1(key)
                    # Insert, evicting the resident to its other slot until
                    # an empty one is found (the table is less than half full).
                    while True:
                        k2 = CUCKOO_KEYS[slot]
                        m2 = CUCKOO_MOVES[slot]
                        CUCKOO_KEYS[slot] = key
                        CUCKOO_MOVES[slot] = m
                        if m2 == MOVE_NONE:
                            break
                        key = k2
                        m = m2
                        slot = cuckoo_h2(key) if slot == cuckoo_h1(key) else cuckoo_h1(key)
                    CUCKOO_COUNT += 1

cdef bint upcoming_repetition(const Pos *pos, int ply) noexcept nogil:
    """Whether a move of the side to move leads back to a position of the
    current search tree (fewer than `ply` plies back) along a clear path."""
    cdef const StateInfo *st = &pos.st[pos.sp]
    cdef int end = st.halfmove if st.halfmove < st.plies_from_null else st.plies_from_null
    cdef int i = 3, slot, s1, s2
    cdef u64 move_key
    cdef Move m
    if end > pos.sp:
        end = pos.sp
    if end >= ply:
        end = ply - 1       # only positions inside the tree count (i < ply)
    while i <= end:
        move_key = st.key ^ pos.st[pos.sp - i].key
        slot = cuckoo_h1(move_key)
        if CUCKOO_KEYS[slot] != move_key:
            slot = cuckoo_h2(move_key)
            if CUCKOO_KEYS[slot] != move_key:
                i += 2
                continue
        m = CUCKOO_MOVES[slot]
        s1 = move_from(m)
        s2 = move_to(m)
        # the path is clear and the piece (on either square) is the side
        # to move's: Stockfish skips the colour test inside the tree, where
        # the other side could have made the move instead; we keep it, so
        # that the claim is the side to move's own
        if not (BETWEEN[s1][s2] & pos.by_type[0]) \
                and color_of(pos.board[s1] if pos.board[s1] else pos.board[s2]) == pos.side:
            return True
        i += 2
    return False
