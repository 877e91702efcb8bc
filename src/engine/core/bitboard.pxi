# Bitboards: bit tricks, attack tables and magic-bitboard slider lookups.
#
# Magic bitboards ("fancy" variant, one shared table per piece type) as
# described on the Chess Programming Wiki. The magic numbers are stored
# (core/magic_numbers.pxi) and checked while the tables are filled; a square
# whose number fails is searched for with a fixed-seed xorshift generator
# (the approach Stockfish uses), the search that found the stored numbers.

cdef extern from *:
    """
    #include <stdint.h>
    static inline int bb_lsb(uint64_t b) { return __builtin_ctzll(b); }
    static inline int bb_msb(uint64_t b) { return 63 - __builtin_clzll(b); }
    static inline int bb_count(uint64_t b) { return __builtin_popcountll(b); }
    static inline int bb_pop(uint64_t *b) { int s = __builtin_ctzll(*b); *b &= *b - 1; return s; }
    """
    int bb_lsb(u64 b) noexcept nogil
    int bb_msb(u64 b) noexcept nogil
    int bb_count(u64 b) noexcept nogil
    int bb_pop(u64 *b) noexcept nogil

cdef enum:
    WHITE = 0
    BLACK = 1
    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6
    NO_SQ = 64

cdef u64 FILE_A = 0x0101010101010101ULL
cdef u64 FILE_H = FILE_A << 7
cdef u64 RANK_1 = 0xFFULL
cdef u64 RANK_8 = RANK_1 << 56

cdef u64 PAWN_ATT[2][64]
cdef u64 KNIGHT_ATT[64]
cdef u64 KING_ATT[64]
cdef u64 BETWEEN[64][64]   # squares strictly between two aligned squares, else 0
cdef u64 LINE[64][64]      # the whole line through two aligned squares, else 0

cdef struct Magic:
    u64 mask
    u64 magic
    u64 *attacks
    int shift

cdef Magic ROOK_MAGIC[64]
cdef Magic BISHOP_MAGIC[64]
cdef u64 ROOK_TABLE[102400]
cdef u64 BISHOP_TABLE[5248]

cdef inline u64 sq_bb(int sq) noexcept nogil:
    return 1ULL << sq

cdef inline int rank_of(int sq) noexcept nogil:
    return sq >> 3

cdef inline int file_of(int sq) noexcept nogil:
    return sq & 7

cdef inline u64 rook_attacks(int sq, u64 occ) noexcept nogil:
    cdef Magic *m = &ROOK_MAGIC[sq]
    return m.attacks[((occ & m.mask) * m.magic) >> m.shift]

cdef inline u64 bishop_attacks(int sq, u64 occ) noexcept nogil:
    cdef Magic *m = &BISHOP_MAGIC[sq]
    return m.attacks[((occ & m.mask) * m.magic) >> m.shift]

cdef inline u64 queen_attacks(int sq, u64 occ) noexcept nogil:
    return rook_attacks(sq, occ) | bishop_attacks(sq, occ)

cdef inline u64 piece_attacks(int pt, int sq, u64 occ) noexcept nogil:
    if pt == KNIGHT:
        return KNIGHT_ATT[sq]
    if pt == BISHOP:
        return bishop_attacks(sq, occ)
    if pt == ROOK:
        return rook_attacks(sq, occ)
    if pt == QUEEN:
        return queen_attacks(sq, occ)
    return KING_ATT[sq]

cdef inline u64 shift_up(u64 b, int color) noexcept nogil:
    return (b << 8) if color == WHITE else (b >> 8)


# ---------------------------------------------------------------- set-up

cdef int ROOK_DIRS[4][2]
cdef int BISHOP_DIRS[4][2]
ROOK_DIRS[:] = [[1, 0], [-1, 0], [0, 1], [0, -1]]
BISHOP_DIRS[:] = [[1, 1], [1, -1], [-1, 1], [-1, -1]]

cdef u64 slide_reference(int sq, u64 occ, int dirs[4][2]) noexcept nogil:
    """Slider attacks computed ray by ray (only used to build the tables)."""
    cdef u64 att = 0
    cdef int d, r, f
    for d in range(4):
        r = rank_of(sq) + dirs[d][1]
        f = file_of(sq) + dirs[d][0]
        while 0 <= r < 8 and 0 <= f < 8:
            att |= sq_bb(8 * r + f)
            if occ & sq_bb(8 * r + f):
                break
            r += dirs[d][1]
            f += dirs[d][0]
    return att

cdef u64 rng_state = 1070372ULL

cdef inline u64 rng_next() noexcept nogil:
    global rng_state
    rng_state ^= rng_state >> 12
    rng_state ^= rng_state << 25
    rng_state ^= rng_state >> 27
    return rng_state * 2685821657736338717ULL

cdef int MAGIC_SEARCHES = 0     # squares whose stored magic failed (searched afresh)

def magic_searches():
    """How many squares' stored magic numbers failed their check at import
    and were searched for instead (0 unless magic_numbers.pxi is wrong)."""
    return MAGIC_SEARCHES

cdef void init_magics(Magic *magics, u64 *table, int dirs[4][2], const u64 *known) noexcept nogil:
    global MAGIC_SEARCHES
    cdef u64 occupancy[4096]
    cdef u64 reference[4096]
    cdef int epoch[4096]
    cdef int sq, size, i, cnt = 0, tries
    cdef u64 edges, b, idx
    cdef u64 *start = table
    cdef Magic *m
    for i in range(4096):
        epoch[i] = 0
    for sq in range(64):
        m = &magics[sq]
        # Edges do not change the attack set, unless the slider stands on them.
        edges = ((RANK_1 | RANK_8) & ~(RANK_1 << (8 * rank_of(sq)))) | \
                ((FILE_A | FILE_H) & ~(FILE_A << file_of(sq)))
        m.mask = slide_reference(sq, 0, dirs) & ~edges
        m.shift = 64 - bb_count(m.mask)
        m.attacks = start
        # Carry-Rippler enumeration of all subsets of the mask.
        size = 0
        b = 0
        while True:
            occupancy[size] = b
            reference[size] = slide_reference(sq, b, dirs)
            size += 1
            b = (b - m.mask) & m.mask
            if b == 0:
                break
        start += size
        tries = 0
        while True:
            if tries == 0:
                m.magic = known[sq]             # the stored number first
            else:
                if tries == 1:
                    MAGIC_SEARCHES += 1
                m.magic = 0
                while bb_count((m.magic * m.mask) >> 56) < 6:
                    m.magic = rng_next() & rng_next() & rng_next()
            tries += 1
            cnt += 1
            i = 0
            while i < size:
                idx = ((occupancy[i] & m.mask) * m.magic) >> m.shift
                if epoch[idx] < cnt:
                    epoch[idx] = cnt
                    m.attacks[idx] = reference[i]
                elif m.attacks[idx] != reference[i]:
                    break
                i += 1
            if i == size:
                break

cdef void init_bitboards() noexcept nogil:
    cdef int sq, s2, d, r, f, c
    cdef int KN[8][2]
    cdef int KG[8][2]
    KN[0][:] = [1, 2]; KN[1][:] = [2, 1]; KN[2][:] = [2, -1]; KN[3][:] = [1, -2]
    KN[4][:] = [-1, -2]; KN[5][:] = [-2, -1]; KN[6][:] = [-2, 1]; KN[7][:] = [-1, 2]
    KG[0][:] = [1, 0]; KG[1][:] = [1, 1]; KG[2][:] = [0, 1]; KG[3][:] = [-1, 1]
    KG[4][:] = [-1, 0]; KG[5][:] = [-1, -1]; KG[6][:] = [0, -1]; KG[7][:] = [1, -1]
    for sq in range(64):
        KNIGHT_ATT[sq] = 0
        KING_ATT[sq] = 0
        for d in range(8):
            f = file_of(sq) + KN[d][0]
            r = rank_of(sq) + KN[d][1]
            if 0 <= f < 8 and 0 <= r < 8:
                KNIGHT_ATT[sq] |= sq_bb(8 * r + f)
            f = file_of(sq) + KG[d][0]
            r = rank_of(sq) + KG[d][1]
            if 0 <= f < 8 and 0 <= r < 8:
                KING_ATT[sq] |= sq_bb(8 * r + f)
        for c in range(2):
            PAWN_ATT[c][sq] = 0
            r = rank_of(sq) + (1 if c == WHITE else -1)
            if 0 <= r < 8:
                if file_of(sq) > 0:
                    PAWN_ATT[c][sq] |= sq_bb(8 * r + file_of(sq) - 1)
                if file_of(sq) < 7:
                    PAWN_ATT[c][sq] |= sq_bb(8 * r + file_of(sq) + 1)
    init_magics(ROOK_MAGIC, ROOK_TABLE, ROOK_DIRS, VIREO_ROOK_MAGICS)
    init_magics(BISHOP_MAGIC, BISHOP_TABLE, BISHOP_DIRS, VIREO_BISHOP_MAGICS)
    for sq in range(64):
        for s2 in range(64):
            BETWEEN[sq][s2] = 0
            LINE[sq][s2] = 0
            if sq == s2:
                continue
            if slide_reference(sq, 0, ROOK_DIRS) & sq_bb(s2):
                BETWEEN[sq][s2] = rook_attacks(sq, sq_bb(s2)) & rook_attacks(s2, sq_bb(sq))
                LINE[sq][s2] = (rook_attacks(sq, 0) & rook_attacks(s2, 0)) | sq_bb(sq) | sq_bb(s2)
            elif slide_reference(sq, 0, BISHOP_DIRS) & sq_bb(s2):
                BETWEEN[sq][s2] = bishop_attacks(sq, sq_bb(s2)) & bishop_attacks(s2, sq_bb(sq))
                LINE[sq][s2] = (bishop_attacks(sq, 0) & bishop_attacks(s2, 0)) | sq_bb(sq) | sq_bb(s2)

