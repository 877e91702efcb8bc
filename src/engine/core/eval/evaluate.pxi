# Evaluation: tapered middlegame/endgame score from the side to move's view.
#
#   material + piece-square tables   incremental in make/unmake (pos.psq)
#   pawn structure, king shelter     pawns.pxi, cached by pawn key
#   mobility, outposts, rooks ...    per piece, while building attack maps
#   king safety, threats, passers    from the finished attack maps
#   endgame scale factor             drawish material (opposite bishops, ...)
#
# Every term is count * weight (layout.pxi), so one function serves both
# play (trace == NULL: no bookkeeping) and tuning (trace != NULL: the count of
# every weight, white minus black, is recorded for engine.tools.tuning).
#
# Starting weights: PeSTO's material and piece-square tables (Ronald
# Friederich, Chess Programming Wiki "PeSTO's Evaluation Function"); the other
# terms follow the usual shapes of Stockfish's classical evaluation and
# Ethereal; all were then fitted with the Texel method (docs/tuning.md).

from libc.string cimport memset

include "layout.pxi"
include "weights.pxi"    # DEFAULT_EVAL_WEIGHTS, written by engine.tools.tuning
load_weight_groups(DEFAULT_EVAL_WEIGHTS)

cdef enum:
    SCALE_NORMAL = 128      # endgame scale factor: eg * scale / 128

cdef bint USE_PAWN_TABLE = True   # off only to measure what the table brings

cdef struct EvalInfo:
    int32_t mg[2]             # accumulated terms of each colour
    int32_t eg[2]
    int32_t *trace            # NULL, or N_WEIGHTS counters (white minus black)
    u64 passed[2]             # passed pawns (from the pawn table)
    u64 attacked[2][7]        # [colour][piece type]; [colour][0] = by anything
    u64 attacked2[2]          # squares attacked at least twice
    u64 mobility_area[2]
    u64 king_zone[2]
    int king_attackers[2]     # pieces of this colour attacking the enemy king zone

cdef inline void add_term(EvalInfo *ei, int c, int idx, int n) noexcept nogil:
    ei.mg[c] += W_MG[idx] * n
    ei.eg[c] += W_EG[idx] * n
    if ei.trace != NULL:
        ei.trace[idx] += n if c == WHITE else -n

# Masks (filled by init_eval_masks).
cdef u64 FILE_BB[8]
cdef u64 RANK_BB[8]
cdef u64 ADJACENT_FILES[8]
cdef u64 FORWARD_FILE[2][64]    # squares ahead on the same file
cdef u64 ATTACK_SPAN[2][64]     # squares ahead on the files beside it
cdef u64 PASSED_SPAN[2][64]     # both of the above
cdef uint8_t DISTANCE[64][64]   # king steps between two squares
cdef u64 LIGHT_SQUARES = 0x55AA55AA55AA55AAULL

include "pawns.pxi"


cdef void init_eval_masks() noexcept nogil:
    cdef int i, c, sq, s2, df, dr
    for i in range(8):
        FILE_BB[i] = FILE_A << i
        RANK_BB[i] = RANK_1 << (8 * i)
    for i in range(8):
        ADJACENT_FILES[i] = (FILE_BB[i - 1] if i > 0 else 0) | (FILE_BB[i + 1] if i < 7 else 0)
    for c in range(2):
        for sq in range(64):
            FORWARD_FILE[c][sq] = FILE_BB[file_of(sq)] & ranks_from(c, relative_rank(c, sq) + 1) \
                if relative_rank(c, sq) < 7 else 0
            ATTACK_SPAN[c][sq] = ADJACENT_FILES[file_of(sq)] & ranks_from(c, relative_rank(c, sq) + 1) \
                if relative_rank(c, sq) < 7 else 0
            PASSED_SPAN[c][sq] = FORWARD_FILE[c][sq] | ATTACK_SPAN[c][sq]
    for sq in range(64):
        for s2 in range(64):
            df = file_of(sq) - file_of(s2)
            dr = rank_of(sq) - rank_of(s2)
            df = -df if df < 0 else df
            dr = -dr if dr < 0 else dr
            DISTANCE[sq][s2] = df if df > dr else dr


cdef void init_eval() noexcept nogil:
    """Build the piece-square tables from the weights (and the masks once).
    Called at import, and again whenever the weights change: positions built
    before a change keep their old incremental psq."""
    cdef int color, pt, sq, pc, rel, sign
    init_eval_masks()
    for pc in range(16):
        PHASE_INC[pc] = 0
        for sq in range(64):
            PSQ_MG[pc][sq] = 0
            PSQ_EG[pc][sq] = 0
    for color in range(2):
        sign = 1 if color == WHITE else -1
        for pt in range(PAWN, KING + 1):
            pc = make_piece(color, pt)
            PHASE_INC[pc] = 1 if pt == KNIGHT or pt == BISHOP else 2 if pt == ROOK else 4 if pt == QUEEN else 0
            for sq in range(64):
                rel = sq ^ (56 * color)
                PSQ_MG[pc][sq] = sign * W_MG[W_PSQT + 64 * (pt - 1) + rel]
                PSQ_EG[pc][sq] = sign * W_EG[W_PSQT + 64 * (pt - 1) + rel]
                if pt != KING:
                    PSQ_MG[pc][sq] += sign * W_MG[W_MATERIAL + pt - 1]
                    PSQ_EG[pc][sq] += sign * W_EG[W_MATERIAL + pt - 1]
    invalidate_pawn_tables()


cdef void psq_terms(const Pos *pos, EvalInfo *ei) noexcept nogil:
    """Material and piece-square terms from scratch (tracing and checks; play
    uses the incremental pos.psq, which must equal this)."""
    cdef u64 b = pos.by_type[0]
    cdef int sq, pc, c, pt
    while b:
        sq = bb_pop(&b)
        pc = pos.board[sq]
        c = color_of(pc)
        pt = type_of(pc)
        if pt != KING:
            add_term(ei, c, W_MATERIAL + pt - 1, 1)
        add_term(ei, c, W_PSQT + 64 * (pt - 1) + (sq ^ (56 * c)), 1)


cdef inline void init_attacks(const Pos *pos, EvalInfo *ei) noexcept nogil:
    cdef int c, t, ksq
    cdef u64 pawns, left, right, zone
    for c in range(2):
        pawns = pieces_of(pos, c, PAWN)
        if c == WHITE:
            left = (pawns & ~FILE_A) << 7
            right = (pawns & ~FILE_H) << 9
        else:
            left = (pawns & ~FILE_A) >> 9
            right = (pawns & ~FILE_H) >> 7
        ksq = king_sq(pos, c)
        ei.attacked[c][PAWN] = left | right
        ei.attacked[c][KING] = KING_ATT[ksq]
        ei.attacked[c][KNIGHT] = ei.attacked[c][BISHOP] = ei.attacked[c][ROOK] = ei.attacked[c][QUEEN] = 0
        ei.attacked[c][0] = left | right | KING_ATT[ksq]
        ei.attacked2[c] = (left & right) | (KING_ATT[ksq] & (left | right))
        zone = KING_ATT[ksq] | sq_bb(ksq)
        ei.king_zone[c] = zone | shift_up(zone, c)
        ei.king_attackers[c] = 0
    for c in range(2):
        t = c ^ 1
        # Safe squares for our pieces: not our pawns or king, not hit by enemy pawns.
        ei.mobility_area[c] = ~(pieces_of(pos, c, PAWN) | pieces_of(pos, c, KING) | ei.attacked[t][PAWN])


cdef inline void piece_terms(const Pos *pos, EvalInfo *ei, int c, int pt) noexcept nogil:
    """Mobility, king-zone attacks and placement of the knights, bishops, rooks
    or queens of colour c; records their attacks in ei."""
    cdef int t = c ^ 1, sq, n
    cdef u64 b = pieces_of(pos, c, pt), att, occ = pos.by_type[0], f
    cdef u64 our_pawns = pieces_of(pos, c, PAWN), their_pawns = pieces_of(pos, t, PAWN)
    cdef u64 outposts = (0x0000FFFFFF000000ULL if c == WHITE else 0x000000FFFFFF0000ULL)
    while b:
        sq = bb_pop(&b)
        att = piece_attacks(pt, sq, occ)
        ei.attacked2[c] |= ei.attacked[c][0] & att
        ei.attacked[c][0] |= att
        ei.attacked[c][pt] |= att
        n = bb_count(att & ei.mobility_area[c])
        if att & ei.king_zone[t]:
            ei.king_attackers[c] += 1
            add_term(ei, c, W_KING_ZONE_ATTACKS + pt - KNIGHT, bb_count(att & ei.king_zone[t]))
        if pt == KNIGHT:
            add_term(ei, c, W_MOB_KNIGHT + n, 1)
        elif pt == BISHOP:
            add_term(ei, c, W_MOB_BISHOP + n, 1)
        elif pt == ROOK:
            add_term(ei, c, W_MOB_ROOK + n, 1)
            f = FILE_BB[file_of(sq)]
            if (f & our_pawns) == 0:
                add_term(ei, c, W_ROOK_OPEN if (f & their_pawns) == 0 else W_ROOK_SEMI_OPEN, 1)
        else:
            add_term(ei, c, W_MOB_QUEEN + n, 1)
        if pt == KNIGHT or pt == BISHOP:
            if (outposts & ei.attacked[c][PAWN] & sq_bb(sq)) and (ATTACK_SPAN[c][sq] & their_pawns) == 0:
                add_term(ei, c, W_KNIGHT_OUTPOST if pt == KNIGHT else W_BISHOP_OUTPOST, 1)
            if shift_up(sq_bb(sq), c) & pos.by_type[PAWN]:
                add_term(ei, c, W_MINOR_BEHIND_PAWN, 1)
            if pt == BISHOP:
                add_term(ei, c, W_BISHOP_PAWNS,
                         bb_count(our_pawns & (LIGHT_SQUARES if sq_bb(sq) & LIGHT_SQUARES else ~LIGHT_SQUARES)))


cdef inline void king_danger_terms(const Pos *pos, EvalInfo *ei, int c) noexcept nogil:
    """Colour c's pressure on the enemy king: attackers on its zone (while c
    has a queen) and the squares it could check from safely."""
    cdef int t = c ^ 1, ksq = king_sq(pos, t), n
    cdef u64 occ = pos.by_type[0], safe, brays, rrays
    if pieces_of(pos, c, QUEEN):
        n = ei.king_attackers[c]
        add_term(ei, c, W_KING_ATTACKERS + (n if n < 7 else 7), 1)
    safe = ~ei.attacked[t][0] & ~pos.by_color[c]
    brays = bishop_attacks(ksq, occ)
    rrays = rook_attacks(ksq, occ)
    n = bb_count(KNIGHT_ATT[ksq] & ei.attacked[c][KNIGHT] & safe)
    if n:
        add_term(ei, c, W_SAFE_CHECK + 0, n)
    n = bb_count(brays & ei.attacked[c][BISHOP] & safe)
    if n:
        add_term(ei, c, W_SAFE_CHECK + 1, n)
    n = bb_count(rrays & ei.attacked[c][ROOK] & safe)
    if n:
        add_term(ei, c, W_SAFE_CHECK + 2, n)
    n = bb_count((brays | rrays) & ei.attacked[c][QUEEN] & safe)
    if n:
        add_term(ei, c, W_SAFE_CHECK + 3, n)


cdef inline void threat_terms(const Pos *pos, EvalInfo *ei, int c) noexcept nogil:
    """Enemy pieces that colour c attacks (after Stockfish's classical threats)."""
    cdef int t = c ^ 1, pt, n
    cdef u64 theirs = pos.by_color[t] & ~pos.by_type[KING]
    cdef u64 non_pawns = theirs & ~pos.by_type[PAWN]
    # Minors hit any piece, or a pawn that no pawn guards; rooks only what no pawn guards.
    cdef u64 weak = theirs & ~ei.attacked[t][PAWN]
    cdef u64 by_minor = (non_pawns | weak) & (ei.attacked[c][KNIGHT] | ei.attacked[c][BISHOP])
    cdef u64 by_rook = weak & ei.attacked[c][ROOK]
    n = bb_count(ei.attacked[c][PAWN] & non_pawns)
    if n:
        add_term(ei, c, W_THREAT_BY_PAWN, n)
    if by_minor | by_rook:
        for pt in range(PAWN, KING):
            n = bb_count(by_minor & pos.by_type[pt])
            if n:
                add_term(ei, c, W_THREAT_BY_MINOR + pt - 1, n)
            n = bb_count(by_rook & pos.by_type[pt])
            if n:
                add_term(ei, c, W_THREAT_BY_ROOK + pt - 1, n)
    n = bb_count(non_pawns & ei.attacked[c][0] & ~ei.attacked[t][0])
    if n:
        add_term(ei, c, W_HANGING, n)


cdef inline void passed_terms(const Pos *pos, EvalInfo *ei, int c) noexcept nogil:
    """Passed pawns beyond the pawn table: a free stop square, king distances."""
    cdef int t = c ^ 1, sq, r, stop, d
    cdef int kus = king_sq(pos, c), kthem = king_sq(pos, t)
    cdef u64 b = ei.passed[c]
    while b:
        sq = bb_pop(&b)
        r = relative_rank(c, sq)
        stop = sq + 8 if c == WHITE else sq - 8
        if (pos.by_type[0] & sq_bb(stop)) == 0 and (ei.attacked[t][0] & sq_bb(stop)) == 0:
            add_term(ei, c, W_PASSED_FREE + r, 1)
        d = DISTANCE[kus][stop]
        add_term(ei, c, W_PASSED_KING_US + r, d if d < 5 else 5)
        d = DISTANCE[kthem][stop]
        add_term(ei, c, W_PASSED_KING_THEM + r, d if d < 5 else 5)


cdef int scale_factor(const Pos *pos, const EvalInfo *ei, int eg) noexcept nogil:
    """Endgame scale, out of SCALE_NORMAL, for the side that the endgame score
    favours. Rules after Stockfish's classical evaluation (Material::
    scale_factor and Evaluation::winnable): no pawns and no real material
    edge, opposite-coloured bishops, few pawns left."""
    cdef int strong = WHITE if eg > 0 else BLACK, weak = strong ^ 1
    cdef u64 s = pos.by_color[strong], w = pos.by_color[weak]
    cdef int s_minors = bb_count(s & (pos.by_type[KNIGHT] | pos.by_type[BISHOP]))
    cdef int s_rooks = bb_count(s & pos.by_type[ROOK]), s_queens = bb_count(s & pos.by_type[QUEEN])
    cdef int w_minors = bb_count(w & (pos.by_type[KNIGHT] | pos.by_type[BISHOP]))
    cdef int w_rooks = bb_count(w & pos.by_type[ROOK]), w_queens = bb_count(w & pos.by_type[QUEEN])
    # non-pawn material in minor = 3 units
    cdef int npm_s = 3 * s_minors + 5 * s_rooks + 9 * s_queens
    cdef int npm_w = 3 * w_minors + 5 * w_rooks + 9 * w_queens
    cdef int s_pawns = bb_count(s & pos.by_type[PAWN])
    cdef u64 bishops = pos.by_type[BISHOP]
    if s_pawns == 0:
        # A lone minor, or knights only, cannot force mate.
        if s_rooks + s_queens == 0 and (s_minors <= 1 or (s & bishops) == 0):
            return 0
        if npm_s - npm_w <= 3:
            return 0 if npm_s < 5 else (8 if npm_w <= 3 else 28)
    if bb_count(s & bishops) == 1 and bb_count(w & bishops) == 1 \
            and ((bishops & LIGHT_SQUARES) != 0) and ((bishops & ~LIGHT_SQUARES) != 0):
        if npm_s == 3 and npm_w == 3:
            return 36 + 8 * bb_count(ei.passed[strong])
        return min(SCALE_NORMAL, 44 + 6 * bb_count(s))
    return min(SCALE_NORMAL, 72 + 14 * s_pawns)


cdef inline int eval_trace(const Pos *pos, PawnEntry *pawns, int32_t *trace, int *phase_out,
                           int *scale_out) noexcept nogil:
    """The evaluation, white's view. pawns: the calling thread's pawn table,
    or NULL. trace: NULL in play; else N_WEIGHTS
    counters that receive every feature count (white minus black). The
    result equals (mg * phase + eg * scale / 128 * (24 - phase)) / 24 over the
    traced counts, and 0 when the scale is 0."""
    cdef EvalInfo ei
    cdef int c, pt, mg, eg, phase, scale
    ei.mg[0] = ei.mg[1] = ei.eg[0] = ei.eg[1] = 0
    ei.trace = trace
    if trace != NULL:
        psq_terms(pos, &ei)
    else:
        ei.mg[WHITE] = pos.psq[0]
        ei.eg[WHITE] = pos.psq[1]
    pawn_terms(pos, &ei, pawns)
    init_attacks(pos, &ei)
    for c in range(2):
        # written out so that each call is compiled for its piece type
        piece_terms(pos, &ei, c, KNIGHT)
        piece_terms(pos, &ei, c, BISHOP)
        piece_terms(pos, &ei, c, ROOK)
        piece_terms(pos, &ei, c, QUEEN)
        if bb_count(pieces_of(pos, c, BISHOP)) >= 2:
            add_term(&ei, c, W_BISHOP_PAIR, 1)
    for c in range(2):
        king_danger_terms(pos, &ei, c)
        threat_terms(pos, &ei, c)
        passed_terms(pos, &ei, c)
    add_term(&ei, pos.side, W_TEMPO, 1)
    mg = ei.mg[WHITE] - ei.mg[BLACK]
    eg = ei.eg[WHITE] - ei.eg[BLACK]
    phase = pos.phase if pos.phase < 24 else 24
    scale = scale_factor(pos, &ei, eg)
    if phase_out != NULL:
        phase_out[0] = phase
    if scale_out != NULL:
        scale_out[0] = scale
    if scale == 0:
        return 0
    return (mg * phase + (eg * scale // SCALE_NORMAL) * (24 - phase)) // 24


cdef int evaluate(Pos *pos, PawnEntry *pawns) noexcept nogil:
    """Static evaluation in centipawns from the side to move's point of view.
    pawns: the calling thread's own pawn table (never one another thread
    uses), or NULL to compute the pawn terms afresh."""
    cdef int v = eval_trace(pos, pawns, NULL, NULL, NULL)
    return v if pos.side == WHITE else -v


include "api.pxi"
