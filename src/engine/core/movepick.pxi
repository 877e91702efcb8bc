# Move ordering: static exchange evaluation, history tables and the staged
# move picker. Searching the best move first is what makes alpha-beta cut:
# the picker hands moves out one at a time, generating quiet moves only when
# the hash move, the good captures and the killers have not cut already.
#
# Stages (main search; also used by quiescence search in check):
#   TT move -> good captures/promotions (SEE >= 0, MVV-LVA + capture history)
#   -> killer 1 -> killer 2 -> countermove -> quiets (history)
#   -> bad captures (SEE < 0) and under-promotions.
# Quiescence search out of check: TT move (if noisy) -> captures and queen
# promotions by MVV-LVA; the search prunes losing ones with SEE.
#
# Ideas from the Chess Programming Wiki and Stockfish/Ethereal (staged
# generation, history gravity, continuation history); the code is ours.

cdef enum:
    HIST_MAX = 16384        # bound of every history table (gravity formula)
    PAWN_HIST_SIZE = 512    # pawn history entries (pawn key % this)
    SS_OFFSET = 6           # the root's stack entry: (ss - 6) always exists

    ST_TT = 0
    ST_GEN_NOISY = 1
    ST_GOOD_NOISY = 2
    ST_KILLER1 = 3
    ST_KILLER2 = 4
    ST_COUNTER = 5
    ST_GEN_QUIET = 6
    ST_QUIET = 7
    ST_BAD_NOISY = 8
    ST_DONE = 9
    QS_TT = 10
    QS_GEN = 11
    QS_NOISY = 12

# Piece values for SEE and MVV-LVA (centipawns, index = piece type).
cdef int SEE_VALUE[7]
SEE_VALUE[:] = [0, 100, 320, 330, 500, 950, 20000]

# The search stack: one entry per ply, ss = stack + SS_OFFSET at the root so
# that (ss - 6), the oldest continuation history read, is always valid.
# Lives here because move ordering reads it.
cdef struct SStack:
    int ply
    int static_eval         # VALUE_NONE when in check; corrected (correction.pxi)
    int raw_eval            # the evaluation before correction: what the hash table keeps
    Move move               # move made at this ply (MOVE_NULL for a null move)
    int piece               # piece code that made it (0 for a null move)
    Move excluded           # singular-extension search excludes this move
    Move killers[2]
    int16_t *cont_hist      # continuation history row of (piece, to) of `move`
    int move_count
    int tt_pv               # this node is, or was, on a principal variation
    int double_ext          # double extensions on the path (bounds explosions)

# Per-thread move-ordering memory (kept across searches of a game).
cdef struct Histories:
    int16_t main[2][4096]                 # [side][from * 64 + to] of quiet moves
    int16_t capture[16][64][8]            # [piece][to][captured type]
    Move counter[16][64]                  # [previous piece][previous to] -> reply
    int16_t cont[16][64][16 * 64]         # [prev piece][prev to][piece * 64 + to]
    int16_t pawn[PAWN_HIST_SIZE][16 * 64] # [pawn key % size][piece * 64 + to] of quiet moves

cdef struct Picker:
    int stage
    int depth               # sorts more of the quiets at higher depth
    Move tt_move
    Move killer1
    Move killer2
    Move counter
    int cur
    int end
    int bad_end
    MoveList ml

cdef inline void history_update(int16_t *entry, int bonus) noexcept nogil:
    """Gravity: entries saturate smoothly at +-HIST_MAX."""
    cdef int b = bonus if bonus < HIST_MAX else HIST_MAX
    if b < -HIST_MAX:
        b = -HIST_MAX
    entry[0] += b - entry[0] * (b if b >= 0 else -b) // HIST_MAX

# ---------------------------------------------------------------- move facts

cdef inline bint is_capture(const Pos *pos, Move m) noexcept nogil:
    cdef int kind = move_kind(m)
    if kind == KIND_EP:
        return True
    return kind != KIND_CASTLE and pos.board[move_to(m)] != 0

cdef inline bint is_noisy(const Pos *pos, Move m) noexcept nogil:
    """Captures and promotions: what the noisy generation stage produces."""
    return is_promotion(m) or is_capture(pos, m)

cdef inline int captured_type(const Pos *pos, Move m) noexcept nogil:
    if move_kind(m) == KIND_EP:
        return PAWN
    if move_kind(m) == KIND_CASTLE:
        return 0
    return type_of(pos.board[move_to(m)])

cdef inline bint has_non_pawn_material(const Pos *pos, int color) noexcept nogil:
    return (pos.by_color[color] & ~(pos.by_type[PAWN] | pos.by_type[KING])) != 0

cdef bint move_is_legal_fast(Pos *pos, Move m) noexcept nogil:
    """Whether an arbitrary 16-bit move (hash move, killer, countermove) is
    legal here, without generating moves: pseudo-legality from the attack
    tables, then the check and pin conditions. En passant and castling, rare
    in those slots, fall back to full generation."""
    cdef int frm = move_from(m), to = move_to(m), kind = move_kind(m)
    cdef int us = pos.side, them = us ^ 1
    cdef int pc, pt, up, ksq
    cdef u64 occ = pos.by_type[0], chk, occ2, enemies
    if m == MOVE_NONE or m == MOVE_NULL or frm == to:
        return False
    if kind == KIND_EP or kind == KIND_CASTLE:
        return move_is_legal(pos, m)
    if kind > KIND_CASTLE:
        return False
    pc = pos.board[frm]
    if pc == 0 or color_of(pc) != us:
        return False
    if pos.board[to] and color_of(pos.board[to]) == us:
        return False
    pt = type_of(pc)
    if pt == PAWN:
        if (rank_of(to) == (7 if us == WHITE else 0)) != (kind != KIND_NORMAL):
            return False
        up = 8 if us == WHITE else -8
        if PAWN_ATT[us][frm] & sq_bb(to):
            if pos.board[to] == 0:
                return False
        elif to == frm + up:
            if pos.board[to]:
                return False
        elif to == frm + 2 * up and rank_of(frm) == (1 if us == WHITE else 6):
            if pos.board[to] or pos.board[frm + up]:
                return False
        else:
            return False
    else:
        if kind != KIND_NORMAL:
            return False
        if not (piece_attacks(pt, frm, occ) & sq_bb(to)):
            return False
    if pt == KING:
        return not sq_attacked(pos, to, them, occ ^ sq_bb(frm))
    ksq = king_sq(pos, us)
    chk = pos.st[pos.sp].checkers
    if chk:
        if chk & (chk - 1):
            return False
        if not ((BETWEEN[ksq][bb_lsb(chk)] | chk) & sq_bb(to)):
            return False
    # No enemy slider may see the king once the piece has moved (pins).
    occ2 = (occ ^ sq_bb(frm)) | sq_bb(to)
    enemies = pos.by_color[them] & ~sq_bb(to)
    if bishop_attacks(ksq, occ2) & (pos.by_type[BISHOP] | pos.by_type[QUEEN]) & enemies:
        return False
    if rook_attacks(ksq, occ2) & (pos.by_type[ROOK] | pos.by_type[QUEEN]) & enemies:
        return False
    return True

cdef bint gives_check(Pos *pos, Move m) noexcept nogil:
    """Whether the legal move m checks the opponent: direct checks from the
    landing square, discovered checks through the vacated square. En passant
    and castling are played and taken back (rare)."""
    cdef int frm = move_from(m), to = move_to(m), kind = move_kind(m)
    cdef int us = pos.side, them = us ^ 1, pt, ksq
    cdef u64 occ, ours, kbb
    cdef bint result
    if kind == KIND_EP or kind == KIND_CASTLE:
        do_move(pos, m)
        result = pos.st[pos.sp].checkers != 0
        undo_move(pos, m)
        return result
    ksq = king_sq(pos, them)
    kbb = sq_bb(ksq)
    pt = promo_piece(m) if is_promotion(m) else type_of(pos.board[frm])
    occ = (pos.by_type[0] ^ sq_bb(frm)) | sq_bb(to)
    if pt == PAWN:
        if PAWN_ATT[us][to] & kbb:
            return True
    elif pt == KNIGHT:
        if KNIGHT_ATT[to] & kbb:
            return True
    elif pt != KING:
        if piece_attacks(pt, to, occ) & kbb:
            return True
    # Discovered: one of our sliders (not the piece that moved) sees the king.
    ours = pos.by_color[us] & ~sq_bb(frm)
    if bishop_attacks(ksq, occ) & (pos.by_type[BISHOP] | pos.by_type[QUEEN]) & ours:
        return True
    return (rook_attacks(ksq, occ) & (pos.by_type[ROOK] | pos.by_type[QUEEN]) & ours) != 0

cdef bint see_ge(const Pos *pos, Move m, int threshold) noexcept nogil:
    """Static exchange evaluation: does m win at least `threshold` centipawns
    when both sides keep recapturing on its square with their least valuable
    attacker (x-rays included)? The swap-list formulation with early exits
    follows Stockfish's see_ge; promotions, en passant and castling count as
    an even exchange."""
    cdef int frm = move_from(m), to = move_to(m)
    cdef int swap, res, stm
    cdef u64 occ, attackers, stm_att, bb
    if move_kind(m) != KIND_NORMAL:
        return 0 >= threshold
    swap = SEE_VALUE[type_of(pos.board[to])] - threshold
    if swap < 0:
        return False
    swap = SEE_VALUE[type_of(pos.board[frm])] - swap
    if swap <= 0:
        return True
    occ = pos.by_type[0] ^ sq_bb(frm) ^ sq_bb(to)
    stm = pos.side
    attackers = attackers_to(pos, to, occ)
    res = 1
    while True:
        stm ^= 1
        attackers &= occ
        stm_att = attackers & pos.by_color[stm]
        if not stm_att:
            break
        res ^= 1
        bb = stm_att & pos.by_type[PAWN]
        if bb:
            swap = SEE_VALUE[PAWN] - swap
            if swap < res:
                break
            occ ^= bb & (~bb + 1)
            attackers |= bishop_attacks(to, occ) & (pos.by_type[BISHOP] | pos.by_type[QUEEN])
            continue
        bb = stm_att & pos.by_type[KNIGHT]
        if bb:
            swap = SEE_VALUE[KNIGHT] - swap
            if swap < res:
                break
            occ ^= bb & (~bb + 1)
            continue
        bb = stm_att & pos.by_type[BISHOP]
        if bb:
            swap = SEE_VALUE[BISHOP] - swap
            if swap < res:
                break
            occ ^= bb & (~bb + 1)
            attackers |= bishop_attacks(to, occ) & (pos.by_type[BISHOP] | pos.by_type[QUEEN])
            continue
        bb = stm_att & pos.by_type[ROOK]
        if bb:
            swap = SEE_VALUE[ROOK] - swap
            if swap < res:
                break
            occ ^= bb & (~bb + 1)
            attackers |= rook_attacks(to, occ) & (pos.by_type[ROOK] | pos.by_type[QUEEN])
            continue
        bb = stm_att & pos.by_type[QUEEN]
        if bb:
            swap = SEE_VALUE[QUEEN] - swap
            if swap < res:
                break
            occ ^= bb & (~bb + 1)
            attackers |= (bishop_attacks(to, occ) & (pos.by_type[BISHOP] | pos.by_type[QUEEN])) \
                | (rook_attacks(to, occ) & (pos.by_type[ROOK] | pos.by_type[QUEEN]))
            continue
        # Only the king is left: it may capture only if the other side has
        # no attacker left, else the capture is illegal and the result flips.
        return (res ^ 1) if (attackers & ~pos.by_color[stm]) else res
    return res

# ---------------------------------------------------------------- scoring

# Pawn history (Stockfish 2023): how a quiet (piece, to) fared with this
# pawn structure. Its weight in move ordering and in the search's history
# score, in percent (0 off).
cdef int PAWN_HIST_PCT = 100
# Continuation histories 4 and 6 plies back (the same side's moves before):
# their weight, in percent, in move ordering and in the search's history
# score that drives pruning and LMR (0 off).
cdef int CONT_FAR_PCT = 50

cdef inline int16_t *pawn_history(const Pos *pos, Histories *h) noexcept nogil:
    return &h.pawn[pos.st[pos.sp].pawn_key & (PAWN_HIST_SIZE - 1)][0]

cdef inline int quiet_history(const Pos *pos, Histories *h, SStack *ss, Move m) noexcept nogil:
    """What the histories say of a quiet move: the main (from, to) table,
    the continuations 1, 2, 4 and 6 plies back, the pawn history."""
    cdef int frm = move_from(m), to = move_to(m)
    cdef int idx = pos.board[frm] * 64 + to
    return (h.main[pos.side][frm * 64 + to]
            + (ss - 1).cont_hist[idx] + (ss - 2).cont_hist[idx]
            + ((ss - 4).cont_hist[idx] + (ss - 6).cont_hist[idx]) * CONT_FAR_PCT // 100
            + pawn_history(pos, h)[idx] * PAWN_HIST_PCT // 100)

cdef inline int quiet_score(const Pos *pos, Histories *h, SStack *ss, Move m) noexcept nogil:
    return quiet_history(pos, h, ss, m)

cdef inline int noisy_score(const Pos *pos, Histories *h, Move m) noexcept nogil:
    cdef int cap = captured_type(pos, m)
    cdef int kind = move_kind(m)
    cdef int score = 16 * SEE_VALUE[cap] + h.capture[pos.board[move_from(m)]][move_to(m)][cap] // 2
    if 1 <= kind <= 4:
        if kind == 4:
            score += 16 * (SEE_VALUE[QUEEN] - SEE_VALUE[PAWN])
        else:
            score = -100000 + kind       # under-promotions: last, with bad captures
    return score

cdef inline int pick_best(MoveList *ml, int cur, int end) noexcept nogil:
    """Swap the best-scored move of [cur, end) into cur (selection sort step)."""
    cdef int i, best = cur
    cdef Move m
    cdef int32_t s
    for i in range(cur + 1, end):
        if ml.scores[i] > ml.scores[best]:
            best = i
    if best != cur:
        m = ml.moves[cur]; ml.moves[cur] = ml.moves[best]; ml.moves[best] = m
        s = ml.scores[cur]; ml.scores[cur] = ml.scores[best]; ml.scores[best] = s
    return cur

cdef inline void partial_insertion_sort(MoveList *ml, int begin, int end, int limit) noexcept nogil:
    """Sort the moves scored >= limit to the front, best first (stable);
    the rest follow unsorted (they are rarely reached, as Stockfish notes)."""
    cdef int p, q, sorted_end = begin
    cdef Move m
    cdef int32_t s
    for p in range(begin + 1, end):
        if ml.scores[p] >= limit:
            m = ml.moves[p]
            s = ml.scores[p]
            sorted_end += 1
            ml.moves[p] = ml.moves[sorted_end]
            ml.scores[p] = ml.scores[sorted_end]
            q = sorted_end
            while q > begin and ml.scores[q - 1] < s:
                ml.moves[q] = ml.moves[q - 1]
                ml.scores[q] = ml.scores[q - 1]
                q -= 1
            ml.moves[q] = m
            ml.scores[q] = s

cdef inline void picker_init(Picker *p, Pos *pos, SStack *ss, Histories *h, Move tt_move,
                             int depth) noexcept nogil:
    """Main-search picker (also for evasions). tt_move must be legal or 0."""
    cdef Move prev = (ss - 1).move
    p.depth = depth
    p.stage = ST_TT if tt_move != MOVE_NONE else ST_GEN_NOISY
    p.tt_move = tt_move
    p.killer1 = ss.killers[0]
    p.killer2 = ss.killers[1]
    if prev != MOVE_NONE and prev != MOVE_NULL:
        p.counter = h.counter[(ss - 1).piece][move_to(prev)]
    else:
        p.counter = MOVE_NONE
    p.ml.count = 0
    p.cur = p.end = p.bad_end = 0

cdef inline void picker_init_qs(Picker *p, Move tt_move) noexcept nogil:
    """Quiescence picker out of check: captures and queen promotions only;
    tt_move must be legal and one of those, or 0."""
    p.stage = QS_TT if tt_move != MOVE_NONE else QS_GEN
    p.depth = 0
    p.tt_move = tt_move
    p.killer1 = p.killer2 = p.counter = MOVE_NONE
    p.ml.count = 0
    p.cur = p.end = p.bad_end = 0

cdef inline bint quiet_candidate(Pos *pos, Move m) noexcept nogil:
    """A killer/countermove is tried in its own stage only if it is still a
    legal quiet move here (it was quiet where it cut)."""
    cdef int kind = move_kind(m)
    if m == MOVE_NONE:
        return False
    if kind == KIND_CASTLE:
        return move_is_legal_fast(pos, m)
    return kind == KIND_NORMAL and pos.board[move_to(m)] == 0 and move_is_legal_fast(pos, m)

cdef Move next_move(Picker *p, Pos *pos, SStack *ss, Histories *h, bint skip_quiets) noexcept nogil:
    """The next move to search, or MOVE_NONE when none is left. With
    skip_quiets (late move pruning) quiet moves are no longer produced."""
    cdef int i
    cdef Move m
    while True:
        if p.stage == ST_TT or p.stage == QS_TT:
            p.stage += 1
            return p.tt_move

        elif p.stage == ST_GEN_NOISY or p.stage == QS_GEN:
            p.ml.count = 0
            gen_legal(pos, &p.ml, GEN_NOISY)
            for i in range(p.ml.count):
                p.ml.scores[i] = noisy_score(pos, h, p.ml.moves[i])
            p.cur = 0
            p.end = p.ml.count
            p.bad_end = 0
            p.stage += 1

        elif p.stage == ST_GOOD_NOISY:
            while p.cur < p.end:
                pick_best(&p.ml, p.cur, p.end)
                m = p.ml.moves[p.cur]
                p.cur += 1
                if m == p.tt_move:
                    continue
                if p.ml.scores[p.cur - 1] > -50000 and see_ge(pos, m, 0):
                    return m
                # Losing captures wait for the end; bad_end < cur, so this
                # slot has been consumed already.
                p.ml.moves[p.bad_end] = m
                p.bad_end += 1
            p.stage = ST_KILLER1

        elif p.stage == ST_KILLER1:
            p.stage = ST_KILLER2
            m = p.killer1
            if m != p.tt_move and quiet_candidate(pos, m):
                return m

        elif p.stage == ST_KILLER2:
            p.stage = ST_COUNTER
            m = p.killer2
            if m != p.tt_move and m != p.killer1 and quiet_candidate(pos, m):
                return m

        elif p.stage == ST_COUNTER:
            p.stage = ST_GEN_QUIET
            m = p.counter
            if m != p.tt_move and m != p.killer1 and m != p.killer2 and quiet_candidate(pos, m):
                return m

        elif p.stage == ST_GEN_QUIET:
            if skip_quiets:
                p.stage = ST_BAD_NOISY
                p.cur = 0
                continue
            # Quiets go after the noisy moves already consumed.
            p.ml.count = p.end
            gen_legal(pos, &p.ml, GEN_QUIET)
            for i in range(p.end, p.ml.count):
                p.ml.scores[i] = quiet_score(pos, h, ss, p.ml.moves[i])
            partial_insertion_sort(&p.ml, p.end, p.ml.count, -3500 * p.depth)
            p.cur = p.end
            p.end = p.ml.count
            p.stage = ST_QUIET

        elif p.stage == ST_QUIET:
            while not skip_quiets and p.cur < p.end:
                m = p.ml.moves[p.cur]
                p.cur += 1
                if m == p.tt_move or m == p.killer1 or m == p.killer2 or m == p.counter:
                    continue
                return m
            p.stage = ST_BAD_NOISY
            p.cur = 0

        elif p.stage == ST_BAD_NOISY:
            if p.cur < p.bad_end:
                p.cur += 1
                return p.ml.moves[p.cur - 1]
            p.stage = ST_DONE

        elif p.stage == QS_NOISY:
            while p.cur < p.end:
                pick_best(&p.ml, p.cur, p.end)
                m = p.ml.moves[p.cur]
                p.cur += 1
                if m == p.tt_move or (is_promotion(m) and promo_piece(m) != QUEEN):
                    continue
                return m
            p.stage = ST_DONE

        else:
            return MOVE_NONE

# ---------------------------------------------------------------- learning

cdef inline int stat_bonus(int depth) noexcept nogil:
    cdef int b = 16 * depth * depth + 32 * depth - 16
    return b if b < 1600 else 1600

cdef inline void update_cont_histories(SStack *ss, int piece, int to, int bonus) noexcept nogil:
    cdef int idx = piece * 64 + to
    history_update(&(ss - 1).cont_hist[idx], bonus)
    history_update(&(ss - 2).cont_hist[idx], bonus)
    history_update(&(ss - 4).cont_hist[idx], bonus)
    history_update(&(ss - 6).cont_hist[idx], bonus)

cdef inline void update_quiet_history(Pos *pos, Histories *h, SStack *ss, Move m, int bonus) noexcept nogil:
    cdef int frm = move_from(m), to = move_to(m)
    history_update(&h.main[pos.side][frm * 64 + to], bonus)
    history_update(&pawn_history(pos, h)[pos.board[frm] * 64 + to], bonus)
    update_cont_histories(ss, pos.board[frm], to, bonus)

cdef void update_move_stats(Pos *pos, Histories *h, SStack *ss, Move best, int depth,
                            Move *quiets, int n_quiets, Move *captures, int n_captures) noexcept nogil:
    """After a beta cutoff (or a best move at an all-node): reward the best
    move, penalise the moves of the same kind searched before it."""
    cdef int bonus = stat_bonus(depth), i
    cdef Move prev = (ss - 1).move, m
    if not is_noisy(pos, best):
        if ss.killers[0] != best:
            ss.killers[1] = ss.killers[0]
            ss.killers[0] = best
        if prev != MOVE_NONE and prev != MOVE_NULL:
            h.counter[(ss - 1).piece][move_to(prev)] = best
        update_quiet_history(pos, h, ss, best, bonus)
        for i in range(n_quiets):
            update_quiet_history(pos, h, ss, quiets[i], -bonus)
    else:
        history_update(&h.capture[pos.board[move_from(best)]][move_to(best)][captured_type(pos, best)], bonus)
    for i in range(n_captures):
        m = captures[i]
        history_update(&h.capture[pos.board[move_from(m)]][move_to(m)][captured_type(pos, m)], -bonus)
