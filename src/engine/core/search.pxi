# Search: iterative deepening with aspiration windows over a negamax
# principal variation search, quiescence search, and Lazy SMP threads.
#
# Everything here runs without the GIL. Each thread owns a SearchThread (a
# copy of the root position, its stack, PV table, root moves and histories);
# the transposition table and the stop flag are shared. search() and
# qsearch() are written as numbered steps; the constants of the steps stand
# together in the tunables block below.
#
# The shape of the algorithm (and several formulas, named where used) follows
# the public descriptions of Stockfish, Ethereal and the Chess Programming
# Wiki; the code is ours.

from libc.math cimport log
from libc.stdint cimport int64_t
from posix.time cimport clock_gettime, timespec, CLOCK_MONOTONIC

cdef extern from *:
    """
    #include <stdint.h>
    static inline int atomic_get_int(int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void atomic_set_int(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static inline int64_t atomic_get_i64(int64_t *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static inline void atomic_set_i64(int64_t *p, int64_t v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    /* A thread's own counter (nodes, tbhits), summed by the main thread while
       it runs: relaxed atomic load and store, plain moves on x86, no locked
       add, since only the owner writes it (Stockfish's per-thread nodes). */
    static inline void counter_inc(uint64_t *p) {
        __atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED); }
    static inline uint64_t counter_get(uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    """
    int atomic_get_int(int *p) noexcept nogil
    void atomic_set_int(int *p, int v) noexcept nogil
    int64_t atomic_get_i64(int64_t *p) noexcept nogil
    void atomic_set_i64(int64_t *p, int64_t v) noexcept nogil
    void counter_inc(u64 *p) noexcept nogil
    u64 counter_get(u64 *p) noexcept nogil

# ---------------------------------------------------------------- scores
# Scores are centipawns from the side to move. Mate scores count plies:
# MATE - ply for "mate at ply", so shorter mates score higher. Tablebase
# wins sit below every mate score and above every evaluation.
cdef enum:
    VALUE_DRAW = 0
    VALUE_MATE = 32000
    VALUE_INF = 32001
    VALUE_NONE = 32002
    VALUE_MATE_IN_MAX = 31754       # VALUE_MATE - 246: Stockfish's layout, as tablebase.py
    VALUE_TB_WIN = 31753            # VALUE_MATE_IN_MAX - 1
    VALUE_TB_WIN_IN_MAX = 31507     # VALUE_TB_WIN - 246
    MAX_SEARCH_DEPTH = 120          # iterative deepening stops here
    TB_NO_RESULT = -99              # probe_tablebase found nothing

# ---------------------------------------------------------------- tunables
# One block for every constant of the search, with the step it belongs to.
# The starting values are the conventional ones of the engines named above,
# scaled to our centipawns. What a step was measured to bring, switching it
# off alone (self-play: 200 games at 20k nodes a move from 8moves_v3
# openings, both colours; Elo for keeping the step, 95% error bars; equal
# nodes understate what saves time; WAC: 300 positions at 100k nodes, solved
# with the step on -> off), with the evaluation of the time:
#   null move              WAC 225 -> 214; its verification search (zugzwang
#                          guard) -10 +-35 Elo (kept: the guard is wanted)
#   ProbCut                +28 +-37 Elo; WAC 225 -> 237 (tactics found later)
#   late move pruning      +9 +-35 Elo; WAC 225 -> 237
#   singular extension     -3 +-34 Elo (it pays at depths 20k nodes do not
#                          reach); WAC 225 -> 237
#   check extension        +26 +-35 Elo; only checks with SEE >= 0: +30 +-34
#                          against extending every check
#   internal iter. reduct. +23 +-36 Elo
#   reverse futility       margin 75 vs 100: +44 +-37; 60 vs 75: +37 +-35;
#                          50 vs 60: -7 +-34; depth 8 vs 6: +9 +-34
#   LMR history term       16384 vs 8192 per ply: +37 +-36; vs 32768: +16 +-36
#   razoring -2, history pruning +2, futility +3, quiet SEE pruning +9
#                          (all +-37 Elo: neutral at this node count)
#   qsearch delta pruning  WAC 225 -> 221 without; qsearch SEE pruning 225 -> 222
cdef int ASP_DELTA = 15          # aspiration window half-width at depth >= 4
cdef int ASP_MIN_DEPTH = 4
cdef int RAZOR_BASE = 230        # Step 8: razor when eval < alpha - base - mul*d*d
cdef int RAZOR_MUL = 125
cdef int RFP_DEPTH = 8           # Step 9: reverse futility up to this depth
cdef int RFP_MARGIN = 60         #   margin per ply (per ply less when improving)
cdef int NMP_MIN_DEPTH = 3       # Step 10: null move from this depth
cdef int NMP_BASE_R = 4          #   R = base + depth / div + min(3, (eval - beta) / eval_div)
cdef int NMP_DEPTH_DIV = 4
cdef int NMP_EVAL_DIV = 200
cdef int NMP_VERIFY_DEPTH = 12   #   zugzwang guard: verification search from this depth
cdef int PROBCUT_DEPTH = 5       # Step 11: ProbCut from this depth
cdef int PROBCUT_MARGIN = 100    #   beta margin
cdef int IIR_DEPTH = 4           # Step 12: internal iterative reduction
cdef int LMP_BASE = 3            # Step 14: late move pruning after (base + d*d) / (2 - improving) moves
cdef int FUT_DEPTH = 8           #   futility pruning of quiets below this lmr depth
cdef int FUT_BASE = 90
cdef int FUT_MUL = 100
cdef int HIST_PRUNE_DEPTH = 3    #   continuation-history pruning below this lmr depth
cdef int HIST_PRUNE_MUL = 3000
cdef int SEE_QUIET_MUL = 25      #   quiets: prune when SEE < -mul * lmr_depth^2
cdef int SEE_NOISY_MUL = 90      #   captures: prune when SEE < -mul * depth
cdef int CHECK_EXT = 1           # Step 15: check extension: 0 off, 1 checks with SEE >= 0, 2 all
cdef int SE_DEPTH = 7            #   singular extension from this depth
cdef int SE_TT_DEPTH = 3         #   hash entry at least depth - this
cdef int DE_MARGIN = 20          #   double extension when this far below singular beta
cdef int DE_LIMIT = 6            #   at most this many double extensions on a path
cdef int LMR_BASE_PCT = 75       # Step 16: r = base/100 + ln(depth) ln(move) / (div/100)
cdef int LMR_DIV_PCT = 225       #   (tunables in hundredths; set_tunable rebuilds the table)
cdef int LMR_HIST_DIV = 16384    #   one ply less (more) per this much history
cdef int QS_FUT_MARGIN = 160     # quiescence: delta pruning margin
cdef int QS_SEE_MARGIN = -50     # quiescence: prune captures with SEE below this
# Capture history in the pruning and reduction of captures (Stockfish's use
# of it): a capture that has often cut is pruned later and reduced less.
cdef int CAP_SEE_HIST_DIV = 32   #   SEE pruning threshold moves by capture history / this,
                                 #   at most 3/4 of SEE_NOISY_MUL * depth (0 off)
cdef int CAP_FUT_DEPTH = 7       #   capture futility below this lmr depth (0 off)
cdef int CAP_FUT_BASE = 150      #     prune when eval + base + mul*lmr_depth + captured + hist/div <= alpha
cdef int CAP_FUT_MUL = 120
cdef int CAP_FUT_HIST_DIV = 32
cdef int CAP_LMR_DIV = 8192      #   one ply less (more) per this much capture history (0 off)
# The 50-move rule: the static evaluation shrinks toward a draw as the
# halfmove clock grows, by halfmove / this (0 off; Stockfish's (200 - r50) / 200 shape).
cdef int RULE50_DAMP = 200

cdef int LMR_TABLE[64][64]

cdef void init_search_tables() noexcept nogil:
    cdef int d, m
    for d in range(64):
        for m in range(64):
            if d == 0 or m == 0:
                LMR_TABLE[d][m] = 0
            else:
                LMR_TABLE[d][m] = <int>(LMR_BASE_PCT / 100.0 + log(d) * log(m) * 100.0 / LMR_DIV_PCT)

init_search_tables()

# ---------------------------------------------------------------- state

cdef struct RootMove:
    Move move
    int score               # this iteration; -VALUE_INF when not (yet) known
    int prev_score          # last completed iteration
    int seldepth
    int pv_len
    u64 nodes               # searched under this move, all iterations (the time manager's node share)
    Move pv[MAX_PLY + 1]

cdef struct SearchShared:
    TTable tt
    int stop                # atomic: any thread may set it
    int infinite            # atomic: no limit applies until cleared (ponder)
    int64_t time_base       # atomic: ms at which soft/hard start counting
    int64_t soft_ms         # atomic: -1 = none
    int64_t hard_ms         # atomic: -1 = none
    int64_t start_ms        # ms at go()
    u64 node_limit          # 0 = none
    u64 soft_node_limit     # 0 = none: no new iteration once this many nodes are searched
    int depth_limit         # 0 = none
    int mate_limit          # 0 = none (moves)
    int multipv
    int nthreads
    void **threads          # SearchThread *[nthreads]
    void *owner             # the Python Search object, for reports and probes
    int tb_enabled
    int tb_probe_depth
    int tb_probe_limit
    int currmove_after_ms   # report the root move being searched after this
    int use_nnue            # evaluate with the loaded network (core/nnue/)
    int last_score          # the main thread's last search result (time_scale.pxi's falling score)
    int last_score_ply      #   at this game ply; -1 = none (new game)

cdef struct SearchThread:
    Pos pos
    SStack stack[MAX_PLY + SS_OFFSET + 6]
    Move pv[MAX_PLY + 2][MAX_PLY + 2]   # triangular PV table
    int pv_len[MAX_PLY + 2]
    RootMove root[MAX_MOVES]
    int root_count
    int pv_idx              # multipv line being searched
    int multipv
    int root_depth
    int completed_depth
    int seldepth
    int nmp_min_ply         # null move disabled for nmp_color below this ply
    int nmp_color
    u64 nodes
    u64 tbhits
    int tick                # calls until the next clock check (main thread)
    int id                  # 0 = main thread
    int best_move_changes
    int root_fail_low       # main thread: the iteration in progress failed low at the root
    int tm_active           # main thread: tscale.percent applies (clock, scaled depth reached)
    TimeScale tscale        # main thread: the soft limit's scale (time_scale.pxi)
    SearchShared *sh
    Histories hist
    CorrectionHistory corr  # kept across a game's searches, as the histories
    NnueStack nnue          # this thread's accumulators (memory only once NNUE is used)
    PawnEntry pawns[1 << PAWN_TABLE_BITS]   # this thread's own pawn cache (pawns.pxi)

# ---------------------------------------------------------------- helpers

cdef inline int64_t now_ms() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <int64_t>ts.tv_sec * 1000 + ts.tv_nsec // 1000000

cdef inline int mate_in(int ply) noexcept nogil:
    return VALUE_MATE - ply

cdef inline int mated_in(int ply) noexcept nogil:
    return -VALUE_MATE + ply

cdef inline int value_to_tt(int v, int ply) noexcept nogil:
    """Mate and TB scores are stored relative to the node, not the root."""
    if v == VALUE_NONE:
        return v
    if v >= VALUE_TB_WIN_IN_MAX:
        return v + ply
    if v <= -VALUE_TB_WIN_IN_MAX:
        return v - ply
    return v

cdef inline int value_from_tt(int v, int ply, int rule50) noexcept nogil:
    """Inverse of value_to_tt. A mate or TB win that the 50-move rule could
    spoil (too far for the plies left) is downgraded to a plain large score,
    as Stockfish does."""
    if v == VALUE_NONE:
        return v
    if v >= VALUE_TB_WIN_IN_MAX:
        if v >= VALUE_MATE_IN_MAX and VALUE_MATE - v > 99 - rule50:
            return VALUE_MATE_IN_MAX - 1
        if VALUE_TB_WIN - v > 99 - rule50:
            return VALUE_TB_WIN_IN_MAX - 1
        return v - ply
    if v <= -VALUE_TB_WIN_IN_MAX:
        if v <= -VALUE_MATE_IN_MAX and VALUE_MATE + v > 99 - rule50:
            return -VALUE_MATE_IN_MAX + 1
        if VALUE_TB_WIN + v > 99 - rule50:
            return -VALUE_TB_WIN_IN_MAX + 1
        return v + ply
    return v

cdef inline int rule50_damped(int v, int halfmove) noexcept nogil:
    """The static evaluation pulled toward a draw as the 50-move rule nears."""
    if RULE50_DAMP <= 0:
        return v
    if halfmove >= RULE50_DAMP:
        return 0
    return v * (RULE50_DAMP - halfmove) // RULE50_DAMP

cdef inline int search_eval(SearchThread *t, SStack *ss) noexcept nogil:
    """The static evaluation the search steps read: ss.raw_eval moved by the
    correction histories, then damped by the halfmove clock."""
    cdef Pos *pos = &t.pos
    return clamp_eval(rule50_damped(corrected_eval(&t.corr, pos, ss, ss.raw_eval),
                                    pos.st[pos.sp].halfmove))

cdef inline int clamp_eval(int v) noexcept nogil:
    if v >= VALUE_TB_WIN_IN_MAX:
        return VALUE_TB_WIN_IN_MAX - 1
    if v <= -VALUE_TB_WIN_IN_MAX:
        return -VALUE_TB_WIN_IN_MAX + 1
    return v

cdef bint is_draw(Pos *pos, int ply) noexcept nogil:
    """Draw by the 50-move rule (unless it is mate), insufficient material,
    or repetition: a repetition inside the search tree counts at once, one
    that reaches back before the root needs the position three times."""
    cdef StateInfo *st = &pos.st[pos.sp]
    cdef int back, i = 4, seen = 0
    cdef MoveList ml
    if st.halfmove >= 100:
        if not st.checkers:
            return True
        ml.count = 0
        gen_legal(pos, &ml, GEN_ALL)
        return ml.count > 0
    if insufficient_material(pos):
        return True
    back = st.halfmove if st.halfmove < st.plies_from_null else st.plies_from_null
    if back > pos.sp:
        back = pos.sp
    while i <= back:
        if pos.st[pos.sp - i].key == st.key:
            if i < ply:
                return True
            seen += 1
            if seen >= 2:
                return True
        i += 2
    return False

cdef inline u64 total_nodes(SearchShared *sh) noexcept nogil:
    cdef u64 n = 0
    cdef int i
    for i in range(sh.nthreads):
        n += counter_get(&(<SearchThread *>sh.threads[i]).nodes)
    return n

cdef inline u64 total_tbhits(SearchShared *sh) noexcept nogil:
    cdef u64 n = 0
    cdef int i
    for i in range(sh.nthreads):
        n += counter_get(&(<SearchThread *>sh.threads[i]).tbhits)
    return n

cdef inline bint aborted(SearchThread *t) noexcept nogil:
    """The search must unwind. The main thread always finishes depth 1, so a
    search stopped at once still returns a searched move."""
    if t.id == 0 and t.root_depth <= 1:
        return False
    return atomic_get_int(&t.sh.stop) != 0

cdef void check_limits(SearchThread *t) noexcept nogil:
    """Main thread: stop on the node limit, the hard time limit, or the
    scaled soft limit inside an iteration that leaves the best move in no
    doubt (time_scale.pxi)."""
    cdef SearchShared *sh = t.sh
    cdef int64_t hard, soft, elapsed
    if atomic_get_int(&sh.infinite):
        return
    if sh.node_limit and total_nodes(sh) >= sh.node_limit:
        atomic_set_int(&sh.stop, 1)
        return
    hard = atomic_get_i64(&sh.hard_ms)
    elapsed = now_ms() - atomic_get_i64(&sh.time_base)
    if hard >= 0 and elapsed >= hard:
        atomic_set_int(&sh.stop, 1)
        return
    if t.tm_active and t.best_move_changes == 0 and not t.root_fail_low:
        soft = atomic_get_i64(&sh.soft_ms)
        if soft >= 0 and (hard < 0 or soft < hard) \
                and elapsed * 10000 >= soft * t.tscale.percent * TM_INSIDE:
            atomic_set_int(&sh.stop, 1)

cdef inline bint should_stop(SearchThread *t) noexcept nogil:
    if t.id == 0 and t.root_depth > 1:
        t.tick -= 1
        if t.tick <= 0 or (t.sh.node_limit and t.nodes >= t.sh.node_limit):
            t.tick = 1024
            check_limits(t)
    return aborted(t)

cdef inline void update_pv(SearchThread *t, int ply, Move m) noexcept nogil:
    cdef int j, n = t.pv_len[ply + 1]
    t.pv[ply][0] = m
    for j in range(n):
        t.pv[ply][j + 1] = t.pv[ply + 1][j]
    t.pv_len[ply] = n + 1

cdef inline void prefetch_child(SearchThread *t, Pos *pos, SStack *ss, Move m) noexcept nogil:
    """Start loading the child's hash bucket, and its continuation correction
    entry, before the move is made. The key is approximate for castling, en
    passant and promotions: a wrong guess only wastes the prefetch."""
    cdef StateInfo *st = &pos.st[pos.sp]
    cdef int frm = move_from(m), to = move_to(m), pc = pos.board[frm]
    cdef u64 key = st.key ^ Z_SIDE ^ Z_PIECE[pc][frm] ^ Z_PIECE[pc][to]
    if pos.board[to]:
        key ^= Z_PIECE[pos.board[to]][to]
    if st.ep != NO_SQ:
        key ^= Z_EP[file_of(st.ep)]
    tt_prefetch(&t.sh.tt, key)
    correction_prefetch(&t.corr, ss, pc, m)

cdef inline void set_stack_move(SearchThread *t, SStack *ss, Pos *pos, Move m) noexcept nogil:
    cdef int pc = pos.board[move_from(m)]
    ss.move = m
    ss.piece = pc
    ss.cont_hist = &t.hist.cont[pc][move_to(m)][0]

cdef inline bint capture_pruned(Pos *pos, Move m, int static_eval, int alpha, int depth,
                                int lmr_depth, int cap_hist) noexcept nogil:
    """Step 14 for a capture or promotion that gives no check, once a move
    has been searched: futility (even the captured piece and what the
    capture history promises leave the static evaluation below alpha; not
    in check, static_eval VALUE_NONE), then SEE pruning of a losing capture,
    whose threshold a good capture history lowers and a bad one raises, by
    at most 3/4 of the margin either way (Stockfish's clamp), so that a
    capture that wins material is never pruned for its history."""
    cdef int margin = SEE_NOISY_MUL * depth
    cdef int shift = cap_hist // CAP_SEE_HIST_DIV if CAP_SEE_HIST_DIV > 0 else 0
    if shift > margin * 3 // 4:
        shift = margin * 3 // 4
    elif shift < -(margin * 3 // 4):
        shift = -(margin * 3 // 4)
    if static_eval != VALUE_NONE and lmr_depth < CAP_FUT_DEPTH and not is_promotion(m) \
            and static_eval + CAP_FUT_BASE + CAP_FUT_MUL * lmr_depth + SEE_VALUE[captured_type(pos, m)] \
                + (cap_hist // CAP_FUT_HIST_DIV if CAP_FUT_HIST_DIV > 0 else 0) <= alpha:
        return True
    return not see_ge(pos, m, -margin - shift)

cdef inline int tb_score(int wdl, int ply) noexcept nogil:
    if wdl >= 2:
        return VALUE_TB_WIN - ply
    if wdl <= -2:
        return -VALUE_TB_WIN + ply
    return VALUE_DRAW     # draws, cursed wins and blessed losses (50-move rule)

# ---------------------------------------------------------------- search

cdef int search(SearchThread *t, SStack *ss, int alpha, int beta, int depth, bint cut_node) noexcept nogil:
    cdef Pos *pos = &t.pos
    cdef SearchShared *sh = t.sh
    cdef Histories *h = &t.hist
    cdef bint pv_node = beta - alpha > 1
    cdef bint root = ss.ply == 0
    cdef int ply = ss.ply, us = pos.side
    cdef bint in_check, tt_hit, improving = False, skip_quiets = False, quiet, gives_chk
    cdef bint tt_capture = False
    cdef int best_value = -VALUE_INF, max_value = VALUE_INF, value = 0, eval = VALUE_NONE
    cdef int tt_score = VALUE_NONE, move_count = 0, new_depth, ext, r, d, lmr_depth
    cdef int hist_score, sing_beta, wdl, bound, R, null_value, probcut_beta, ri = 0, i
    cdef int cap_hist
    cdef Move m, best_move = MOVE_NONE, tt_move = MOVE_NONE, excluded = ss.excluded
    cdef u64 key
    cdef TTHit tte
    cdef Picker mp
    cdef Move quiets[64]
    cdef Move captures[32]
    cdef int n_quiets = 0, n_captures = 0
    cdef RootMove *rm
    cdef int64_t elapsed
    cdef u64 root_nodes = 0

    # Step 1. At the horizon: quiescence search.
    if depth <= 0:
        return qsearch(t, ss, alpha, beta)
    if depth >= MAX_PLY:
        depth = MAX_PLY - 1

    # Step 2. Stop check and node bookkeeping.
    t.pv_len[ply] = 0
    if should_stop(t):
        return 0
    in_check = pos.st[pos.sp].checkers != 0
    if pv_node and ply + 1 > t.seldepth:
        t.seldepth = ply + 1

    if not root:
        # Step 3. Draws, a move back to a position of the tree (at least a
        # draw: cuckoo.pxi), and the maximum ply.
        if is_draw(pos, ply):
            return VALUE_DRAW
        if UPCOMING_REP and alpha < VALUE_DRAW and upcoming_repetition(pos, ply):
            alpha = VALUE_DRAW
            if alpha >= beta:
                return alpha
        if ply >= MAX_PLY - 2:
            return clamp_eval(eval_for_search(pos, t.pawns)) if not in_check else VALUE_DRAW
        # Step 4. Mate distance pruning: no line can beat a shorter mate.
        if alpha < mated_in(ply):
            alpha = mated_in(ply)
        if beta > mate_in(ply + 1):
            beta = mate_in(ply + 1)
        if alpha >= beta:
            return alpha

    (ss + 1).killers[0] = (ss + 1).killers[1] = MOVE_NONE
    if ply + 2 < MAX_PLY + 6:
        (ss + 2).killers[0] = (ss + 2).killers[1] = MOVE_NONE

    # Step 5. Transposition table: a cutoff in non-PV nodes.
    key = pos.st[pos.sp].key
    tt_hit = tt_probe(&sh.tt, key, &tte)
    if tt_hit:
        tt_score = value_from_tt(tte.score, ply, pos.st[pos.sp].halfmove) \
            if tte.bound != BOUND_NONE else VALUE_NONE
        if tte.move != MOVE_NONE and move_is_legal_fast(pos, tte.move):
            tt_move = tte.move
    if root:
        tt_move = t.root[t.pv_idx].move
    if tt_move != MOVE_NONE:
        tt_capture = is_noisy(pos, tt_move)
    if not excluded:
        ss.tt_pv = pv_node or (tt_hit and tte.pv)
    if (not pv_node and not excluded and tt_hit and tt_score != VALUE_NONE
            and tte.depth >= depth and pos.st[pos.sp].halfmove < 90
            and (tte.bound & (BOUND_LOWER if tt_score >= beta else BOUND_UPPER))):
        if tt_move != MOVE_NONE and tt_score >= beta and not tt_capture:
            update_quiet_history(pos, h, ss, tt_move, stat_bonus(depth))
        return tt_score

    # Step 6. Tablebases, at nodes right after a capture or pawn move.
    # Fewer pieces than the limit: any depth; at the limit (the largest,
    # slowest tables): only at depth >= tb_probe_depth (Stockfish's rule).
    if (sh.tb_enabled and not root and not excluded
            and pos.st[pos.sp].halfmove == 0 and pos.st[pos.sp].castle == 0
            and bb_count(pos.by_type[0]) <= sh.tb_probe_limit
            and (bb_count(pos.by_type[0]) < sh.tb_probe_limit or depth >= sh.tb_probe_depth)):
        wdl = probe_tablebase(t)
        if wdl != TB_NO_RESULT:
            counter_inc(&t.tbhits)
            value = tb_score(wdl, ply)
            bound = BOUND_LOWER if wdl >= 2 else (BOUND_UPPER if wdl <= -2 else BOUND_EXACT)
            if bound == BOUND_EXACT or (bound == BOUND_LOWER and value >= beta) \
                    or (bound == BOUND_UPPER and value <= alpha):
                tt_store(&sh.tt, key, depth + 6 if depth + 6 < MAX_PLY else MAX_PLY - 1,
                         value_to_tt(value, ply), VALUE_NONE, MOVE_NONE, bound, ss.tt_pv)
                return value
            if pv_node:
                if bound == BOUND_LOWER:
                    best_value = value
                    if value > alpha:
                        alpha = value
                else:
                    max_value = value

    # Step 7. Static evaluation (the hash table keeps it uncorrected), moved
    # by the correction histories and damped by the halfmove clock, then
    # refined by the hash score when its bound allows.
    if in_check:
        ss.static_eval = eval = ss.raw_eval = VALUE_NONE
    elif excluded:
        eval = ss.static_eval
    else:
        if tt_hit and tte.eval != VALUE_NONE:
            ss.raw_eval = tte.eval
        else:
            ss.raw_eval = clamp_eval(eval_for_search(pos, t.pawns))
            if not tt_hit:
                tt_store(&sh.tt, key, DEPTH_EVAL_ONLY, VALUE_NONE, ss.raw_eval, MOVE_NONE, BOUND_NONE,
                         ss.tt_pv)
        ss.static_eval = eval = search_eval(t, ss)
        if tt_score != VALUE_NONE and (tte.bound & (BOUND_LOWER if tt_score > eval else BOUND_UPPER)):
            eval = tt_score
    if not in_check:
        if (ss - 2).static_eval != VALUE_NONE:
            improving = ss.static_eval > (ss - 2).static_eval
        elif (ss - 4).static_eval != VALUE_NONE:
            improving = ss.static_eval > (ss - 4).static_eval
        else:
            improving = True

    if not in_check and not pv_node and not excluded:
        # Step 8. Razoring: far below alpha, trust the quiescence search.
        if eval < alpha - RAZOR_BASE - RAZOR_MUL * depth * depth:
            value = qsearch(t, ss, alpha - 1, alpha)
            if value < alpha:
                return value

        # Step 9. Reverse futility pruning (static null move).
        if depth <= RFP_DEPTH and eval - RFP_MARGIN * (depth - improving) >= beta \
                and eval < VALUE_TB_WIN_IN_MAX and beta > -VALUE_TB_WIN_IN_MAX:
            return eval

        # Step 10. Null move pruning. Zugzwang guard: never without pieces,
        # and at high depth a verification search with null moves disabled.
        if (depth >= NMP_MIN_DEPTH and eval >= beta and ss.static_eval >= beta
                and (ss - 1).move != MOVE_NULL and has_non_pawn_material(pos, us)
                and beta > -VALUE_TB_WIN_IN_MAX
                and (ply >= t.nmp_min_ply or us != t.nmp_color)):
            R = NMP_BASE_R + depth // NMP_DEPTH_DIV
            R += min((eval - beta) // NMP_EVAL_DIV, 3)
            ss.move = MOVE_NULL
            ss.piece = 0
            ss.cont_hist = &h.cont[0][0][0]
            do_null_move(pos)
            null_value = -search(t, ss + 1, -beta, -beta + 1, depth - R, not cut_node)
            undo_null_move(pos)
            if aborted(t):
                return 0
            if null_value >= beta:
                if null_value >= VALUE_TB_WIN_IN_MAX:
                    null_value = beta
                if t.nmp_min_ply or depth < NMP_VERIFY_DEPTH:
                    return null_value
                t.nmp_min_ply = ply + 3 * (depth - R) // 4
                t.nmp_color = us
                value = search(t, ss, beta - 1, beta, depth - R, False)
                t.nmp_min_ply = 0
                if value >= beta:
                    return null_value

        # Step 11. ProbCut: a capture that beats beta by a margin at reduced
        # depth will almost surely beat beta at full depth.
        probcut_beta = beta + PROBCUT_MARGIN
        if (depth >= PROBCUT_DEPTH and beta > -VALUE_TB_WIN_IN_MAX and beta < VALUE_TB_WIN_IN_MAX
                and not (tt_hit and tte.depth >= depth - 3 and tt_score != VALUE_NONE
                         and tt_score < probcut_beta)):
            picker_init_qs(&mp, tt_move if tt_capture and see_ge(pos, tt_move, probcut_beta - ss.static_eval) else MOVE_NONE)
            while True:
                m = next_move(&mp, pos, ss, h, True)
                if m == MOVE_NONE:
                    break
                if not see_ge(pos, m, probcut_beta - ss.static_eval):
                    continue
                prefetch_child(t, pos, ss, m)
                set_stack_move(t, ss, pos, m)
                do_move(pos, m)
                counter_inc(&t.nodes)
                value = -qsearch(t, ss + 1, -probcut_beta, -probcut_beta + 1)
                if value >= probcut_beta:
                    value = -search(t, ss + 1, -probcut_beta, -probcut_beta + 1, depth - 4, not cut_node)
                undo_move(pos, m)
                if aborted(t):
                    return 0
                if value >= probcut_beta:
                    tt_store(&sh.tt, key, depth - 3, value_to_tt(value, ply), ss.raw_eval, m,
                             BOUND_LOWER, ss.tt_pv)
                    return value

    # Step 12. Internal iterative reduction: without a hash move this node
    # was not searched before; search it shallower (the next iteration will
    # find the hash move).
    if (pv_node or cut_node) and depth >= IIR_DEPTH and tt_move == MOVE_NONE and not excluded:
        depth -= 1

    # Step 13. The move loop.
    picker_init(&mp, pos, ss, h, tt_move if not root else MOVE_NONE, depth)
    if root:
        ri = t.pv_idx
    while True:
        if root:
            if ri >= t.root_count:
                break
            m = t.root[ri].move
            ri += 1
        else:
            m = next_move(&mp, pos, ss, h, skip_quiets)
            if m == MOVE_NONE:
                break
        if m == excluded:
            continue
        prefetch_child(t, pos, ss, m)       # early: the pruning tests below hide the latency
        move_count += 1
        ss.move_count = move_count
        quiet = not is_noisy(pos, m)
        gives_chk = gives_check(pos, m)
        new_depth = depth - 1
        hist_score = cap_hist = 0
        if quiet:
            hist_score = quiet_history(pos, h, ss, m)
        else:
            cap_hist = h.capture[pos.board[move_from(m)]][move_to(m)][captured_type(pos, m)]

        if root and sh.currmove_after_ms >= 0 and t.id == 0:
            elapsed = now_ms() - sh.start_ms
            if elapsed >= sh.currmove_after_ms:
                report_currmove(t, m, move_count + t.pv_idx, depth)

        # Step 14. Pruning at shallow depth, once a move has been searched.
        if not root and best_value > -VALUE_TB_WIN_IN_MAX and has_non_pawn_material(pos, us):
            lmr_depth = new_depth - LMR_TABLE[depth if depth < 64 else 63][move_count if move_count < 64 else 63]
            if lmr_depth < 0:
                lmr_depth = 0
            if quiet and not gives_chk:
                # Late move pruning: enough quiet moves tried.
                if move_count >= (LMP_BASE + depth * depth) // (2 - improving):
                    skip_quiets = True
                    continue
                # Continuation-history pruning.
                if lmr_depth < HIST_PRUNE_DEPTH and hist_score < -HIST_PRUNE_MUL * depth:
                    continue
                # Futility pruning: the static eval plus a margin stays below alpha.
                if not in_check and lmr_depth < FUT_DEPTH \
                        and ss.static_eval + FUT_BASE + FUT_MUL * lmr_depth <= alpha:
                    continue
                # SEE pruning of quiets that lose material.
                if not see_ge(pos, m, -SEE_QUIET_MUL * lmr_depth * lmr_depth):
                    continue
            elif not gives_chk and capture_pruned(pos, m, ss.static_eval if not in_check else VALUE_NONE,
                                                  alpha, depth, lmr_depth, cap_hist):
                continue

        # Step 15. Extensions: singular extension of the hash move (with
        # multi-cut and negative extension), check extension.
        ext = 0
        if not root and ply < 2 * t.root_depth:
            if (depth >= SE_DEPTH and m == tt_move and not excluded
                    and (tte.bound & BOUND_LOWER) and tte.depth >= depth - SE_TT_DEPTH
                    and tt_score != VALUE_NONE and tt_score < VALUE_TB_WIN_IN_MAX
                    and tt_score > -VALUE_TB_WIN_IN_MAX):
                sing_beta = tt_score - 2 * depth
                ss.excluded = m
                value = search(t, ss, sing_beta - 1, sing_beta, (depth - 1) // 2, cut_node)
                ss.excluded = MOVE_NONE
                if aborted(t):
                    return 0
                if value < sing_beta:
                    ext = 1
                    if not pv_node and value < sing_beta - DE_MARGIN and ss.double_ext < DE_LIMIT:
                        ext = 2
                elif sing_beta >= beta:
                    return sing_beta        # multi-cut: several moves beat beta
                elif tt_score >= beta:
                    ext = -1
            elif gives_chk and CHECK_EXT and (CHECK_EXT == 2 or see_ge(pos, m, 0)):
                ext = 1
        new_depth += ext
        ss.double_ext = (ss - 1).double_ext + (1 if ext >= 2 else 0)

        set_stack_move(t, ss, pos, m)
        if root:
            root_nodes = t.nodes
        do_move(pos, m)
        counter_inc(&t.nodes)

        # Step 16. Late move reductions, then principal variation search.
        if depth >= 2 and move_count > 1 + (1 if root else 0):
            r = LMR_TABLE[depth if depth < 64 else 63][move_count if move_count < 64 else 63]
            if quiet:
                r += 0 if improving else 1
                r += 1 if cut_node else 0
                r += 1 if tt_capture else 0
                if m == mp.killer1 or m == mp.killer2 or m == mp.counter:
                    r -= 1
                r -= hist_score // LMR_HIST_DIV
            else:
                r = r // 2
                if CAP_LMR_DIV > 0:
                    r -= cap_hist // CAP_LMR_DIV
            r -= 1 if ss.tt_pv else 0
            r -= 1 if gives_chk else 0
            d = new_depth - r
            if d > new_depth:
                d = new_depth
            if d < 1:
                d = 1
            value = -search(t, ss + 1, -alpha - 1, -alpha, d, True)
            if value > alpha and d < new_depth:
                value = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, not cut_node)
        elif not pv_node or move_count > 1:
            value = -search(t, ss + 1, -alpha - 1, -alpha, new_depth, not cut_node)
        if pv_node and (move_count == 1 or value > alpha):
            value = -search(t, ss + 1, -beta, -alpha, new_depth, False)

        undo_move(pos, m)
        if root:
            t.root[ri - 1].nodes += t.nodes - root_nodes
        if aborted(t):
            return 0

        if root:
            rm = &t.root[ri - 1]
            if move_count == 1 or value > alpha:
                rm.score = value
                rm.seldepth = t.seldepth
                rm.pv[0] = m
                for i in range(t.pv_len[1]):
                    rm.pv[i + 1] = t.pv[1][i]
                rm.pv_len = t.pv_len[1] + 1
                if move_count > 1 and t.pv_idx == 0:
                    t.best_move_changes += 1
            else:
                rm.score = -VALUE_INF

        if value > best_value:
            best_value = value
            if value > alpha:
                best_move = m
                if pv_node:
                    update_pv(t, ply, m)
                if value >= beta:
                    break
                alpha = value

        if m != best_move:
            if quiet:
                if n_quiets < 64:
                    quiets[n_quiets] = m
                    n_quiets += 1
            elif n_captures < 32:
                captures[n_captures] = m
                n_captures += 1

    # Step 17. No legal move: checkmate or stalemate.
    if move_count == 0:
        if excluded:
            return alpha
        return mated_in(ply) if in_check else VALUE_DRAW
    if best_move != MOVE_NONE:
        update_move_stats(pos, h, ss, best_move, depth, quiets, n_quiets, captures, n_captures)
    if best_value > max_value:
        best_value = max_value

    # Step 18. Store the result, and learn the static evaluation's error
    # where the result bounds it on the informative side (a fail high above
    # it, a fail low below it, or exact) and the best move is quiet.
    if not excluded and not (root and t.pv_idx > 0):
        if best_value >= beta:
            bound = BOUND_LOWER
        elif pv_node and best_move != MOVE_NONE:
            bound = BOUND_EXACT
        else:
            bound = BOUND_UPPER
        tt_store(&sh.tt, key, depth, value_to_tt(best_value, ply), ss.raw_eval,
                 best_move, bound, ss.tt_pv)
        if (not in_check and (best_move == MOVE_NONE or not is_noisy(pos, best_move))
                and best_value < VALUE_TB_WIN_IN_MAX and best_value > -VALUE_TB_WIN_IN_MAX
                and not (bound == BOUND_LOWER and best_value <= ss.static_eval)
                and not (bound == BOUND_UPPER and best_value >= ss.static_eval)):
            update_correction(&t.corr, pos, ss, ss.static_eval, best_value, depth)
    return best_value


cdef int qsearch(SearchThread *t, SStack *ss, int alpha, int beta) noexcept nogil:
    """Quiescence search: captures and queen promotions until the position is
    quiet; every evasion when in check."""
    cdef Pos *pos = &t.pos
    cdef SearchShared *sh = t.sh
    cdef Histories *h = &t.hist
    cdef bint pv_node = beta - alpha > 1
    cdef int ply = ss.ply
    cdef bint in_check, tt_hit
    cdef int best_value, value, tt_score = VALUE_NONE, futility_base = -VALUE_INF, fv
    cdef int move_count = 0, eval
    cdef Move m, best_move = MOVE_NONE, tt_move = MOVE_NONE
    cdef u64 key
    cdef TTHit tte
    cdef Picker mp

    # Step 1. Stop check, draws, an upcoming repetition, maximum ply.
    t.pv_len[ply] = 0
    if should_stop(t):
        return 0
    in_check = pos.st[pos.sp].checkers != 0
    if pv_node and ply + 1 > t.seldepth:
        t.seldepth = ply + 1
    if is_draw(pos, ply):
        return VALUE_DRAW
    if UPCOMING_REP and alpha < VALUE_DRAW and upcoming_repetition(pos, ply):
        alpha = VALUE_DRAW
        if alpha >= beta:
            return alpha
    if ply >= MAX_PLY - 2:
        return clamp_eval(eval_for_search(pos, t.pawns)) if not in_check else VALUE_DRAW

    # Step 2. Transposition table.
    key = pos.st[pos.sp].key
    tt_hit = tt_probe(&sh.tt, key, &tte)
    if tt_hit:
        tt_score = value_from_tt(tte.score, ply, pos.st[pos.sp].halfmove) \
            if tte.bound != BOUND_NONE else VALUE_NONE
        if tte.move != MOVE_NONE and move_is_legal_fast(pos, tte.move):
            if in_check or (is_capture(pos, tte.move) and not is_promotion(tte.move)) \
                    or (is_promotion(tte.move) and promo_piece(tte.move) == QUEEN):
                tt_move = tte.move
        if (not pv_node and tt_score != VALUE_NONE and tte.depth >= DEPTH_QS
                and (tte.bound & (BOUND_LOWER if tt_score >= beta else BOUND_UPPER))):
            return tt_score

    # Step 3. Stand pat: out of check the side to move may decline to capture.
    if in_check:
        best_value = -VALUE_INF
        ss.static_eval = ss.raw_eval = VALUE_NONE
    else:
        if tt_hit and tte.eval != VALUE_NONE:
            ss.raw_eval = tte.eval
        else:
            ss.raw_eval = clamp_eval(eval_for_search(pos, t.pawns))
        ss.static_eval = eval = search_eval(t, ss)
        best_value = eval
        # The hash score refines the stand pat, but a mate score is the
        # value of a move, never of standing pat (it would also cut the PV).
        if tt_score != VALUE_NONE and tt_score < VALUE_TB_WIN_IN_MAX and tt_score > -VALUE_TB_WIN_IN_MAX \
                and (tte.bound & (BOUND_LOWER if tt_score > eval else BOUND_UPPER)):
            best_value = tt_score
        if best_value >= beta:
            if not tt_hit:
                tt_store(&sh.tt, key, DEPTH_EVAL_ONLY, value_to_tt(best_value, ply), ss.raw_eval,
                         MOVE_NONE, BOUND_LOWER, False)
            return best_value
        if best_value > alpha:
            alpha = best_value
        futility_base = ss.static_eval + QS_FUT_MARGIN

    # Step 4. Captures (or evasions), best first.
    if in_check:
        picker_init(&mp, pos, ss, h, tt_move, 0)
    else:
        picker_init_qs(&mp, tt_move)
    while True:
        m = next_move(&mp, pos, ss, h, False)
        if m == MOVE_NONE:
            break
        prefetch_child(t, pos, ss, m)
        move_count += 1
        if best_value > -VALUE_TB_WIN_IN_MAX and not in_check:
            # Delta pruning: even winning the captured piece cannot reach
            # alpha (checks excepted; gives_check is asked only then).
            if not is_promotion(m):
                fv = futility_base + SEE_VALUE[captured_type(pos, m)]
                if fv <= alpha and not gives_check(pos, m):
                    if fv > best_value:
                        best_value = fv
                    continue
                if fv > alpha and futility_base <= alpha and not see_ge(pos, m, 1) \
                        and not gives_check(pos, m):
                    if futility_base > best_value:
                        best_value = futility_base
                    continue
            # SEE pruning: losing captures.
            if not see_ge(pos, m, QS_SEE_MARGIN):
                continue
        set_stack_move(t, ss, pos, m)
        do_move(pos, m)
        counter_inc(&t.nodes)
        value = -qsearch(t, ss + 1, -beta, -alpha)
        undo_move(pos, m)
        if aborted(t):
            return 0
        if value > best_value:
            best_value = value
            if value > alpha:
                best_move = m
                if pv_node:
                    update_pv(t, ply, m)
                if value >= beta:
                    break
                alpha = value

    # Step 5. Mated: in check with no evasion.
    if in_check and move_count == 0:
        return mated_in(ply)

    # Step 6. Store.
    tt_store(&sh.tt, key, DEPTH_QS, value_to_tt(best_value, ply), ss.raw_eval, best_move,
             BOUND_LOWER if best_value >= beta else BOUND_UPPER, False)
    return best_value

# ---------------------------------------------------------------- iterative deepening

cdef void sort_root_moves(RootMove *rm, int n) noexcept nogil:
    """Stable insertion sort, best score first (moves that failed low keep
    their previous order)."""
    cdef int i, j
    cdef RootMove tmp
    for i in range(1, n):
        if rm[i].score <= rm[i - 1].score:
            continue
        tmp = rm[i]
        j = i - 1
        while j >= 0 and rm[j].score < tmp.score:
            rm[j + 1] = rm[j]
            j -= 1
        rm[j + 1] = tmp

# Lazy SMP helpers skip some depths so that threads spread over depths
# (the pattern Stockfish 9 used).
cdef int SKIP_SIZE[20]
cdef int SKIP_PHASE[20]
SKIP_SIZE[:] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4]
SKIP_PHASE[:] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7]

# Measured (bench positions, depth 14, 64 MB): the main thread needed 5.31M
# nodes alone, 3.52M with one skipping helper, 4.23M with a helper that
# searches every depth.
cdef int HELPER_SKIP = 1    # 0: helpers search every depth

cdef inline bint helper_skips(int id, int depth, int game_ply) noexcept nogil:
    cdef int i
    if id == 0 or not HELPER_SKIP:
        return False
    i = (id - 1) % 20
    return ((depth + game_ply + SKIP_PHASE[i]) // SKIP_SIZE[i]) % 2 != 0

cdef void iterative_deepening(SearchThread *t) noexcept nogil:
    cdef SearchShared *sh = t.sh
    cdef SStack *ss = &t.stack[SS_OFFSET]
    cdef int depth, pv_idx, alpha, beta, delta, score, i, prev, multipv
    cdef int max_depth = MAX_SEARCH_DEPTH
    cdef int game_ply = t.pos.sp
    cdef bint main = t.id == 0
    cdef int64_t elapsed, soft, hard
    cdef int scale
    multipv = t.multipv if t.multipv < t.root_count else t.root_count
    if main:
        t.tm_active = 0
        t.root_fail_low = 0
        # the previous search of this game, two plies back: a falling score earns time
        time_scale_reset(&t.tscale, sh.last_score if sh.last_score_ply >= 0
                         and sh.last_score_ply + 2 == game_ply else VALUE_NONE)
    for depth in range(1, max_depth + 1):
        if depth > 1 and atomic_get_int(&sh.stop):
            break
        if helper_skips(t.id, depth, game_ply):
            continue
        t.root_depth = depth
        t.best_move_changes = 0
        for i in range(t.root_count):
            t.root[i].prev_score = t.root[i].score
        for pv_idx in range(multipv):
            t.pv_idx = pv_idx
            t.seldepth = 0
            prev = t.root[pv_idx].prev_score
            delta = ASP_DELTA
            if depth >= ASP_MIN_DEPTH and prev > -VALUE_TB_WIN_IN_MAX and prev < VALUE_TB_WIN_IN_MAX:
                alpha = max(prev - delta, -VALUE_INF)
                beta = min(prev + delta, VALUE_INF)
            else:
                alpha = -VALUE_INF
                beta = VALUE_INF
            while True:
                score = search(t, ss, alpha, beta, depth, False)
                sort_root_moves(&t.root[pv_idx], t.root_count - pv_idx)
                if aborted(t):
                    break
                if score <= alpha:
                    if pv_idx == 0:
                        t.root_fail_low = 1     # the best move in doubt: no early stop (check_limits)
                    if main and multipv == 1:
                        report_bound(t, depth, score, BOUND_UPPER)
                    beta = (alpha + beta) // 2
                    alpha = max(score - delta, -VALUE_INF)
                elif score >= beta:
                    if main and multipv == 1:
                        report_bound(t, depth, score, BOUND_LOWER)
                    beta = min(score + delta, VALUE_INF)
                else:
                    break
                delta += delta // 2
            if pv_idx == 0:
                t.root_fail_low = 0
            sort_root_moves(&t.root[0], pv_idx + 1)
            if aborted(t):
                break
        if aborted(t):
            break
        t.completed_depth = depth
        if not main:
            continue
        if t.root[0].score > -VALUE_INF:
            sh.last_score = t.root[0].score     # for the next search of this game
            sh.last_score_ply = game_ply

        report_iteration(t, depth)
        if atomic_get_int(&sh.infinite):
            continue
        # Limits checked between iterations.
        if sh.depth_limit and depth >= sh.depth_limit:
            break
        if sh.mate_limit and t.root[0].score >= VALUE_MATE - (2 * sh.mate_limit - 1):
            break
        if sh.node_limit and total_nodes(sh) >= sh.node_limit:
            break
        if sh.soft_node_limit and total_nodes(sh) >= sh.soft_node_limit:
            break
        soft = atomic_get_i64(&sh.soft_ms)
        hard = atomic_get_i64(&sh.hard_ms)
        # soft >= hard (movetime, as the UCI layer passes it): use it all.
        if soft >= 0 and (hard < 0 or soft < hard):
            if t.root_count == 1:
                scale = 20              # one legal move: answer at once, keep the time
            else:
                scale = time_scale_update(&t.tscale, depth, t.root[0].move, t.root[0].score,
                                          t.root[0].nodes, t.nodes, t.best_move_changes)
                t.tm_active = depth >= TM_MIN_DEPTH
            elapsed = now_ms() - atomic_get_i64(&sh.time_base)
            if elapsed * 100 >= soft * scale:
                break
