# How long this move's search should go on, given what the search has seen.
#
# The UCI layer plans a soft limit (engine.uci.timeman): the time a move of
# ordinary difficulty gets. The main thread scales it after each completed
# iteration by four measures of how settled the search is, and stops:
#
# * between iterations, once the time used passes the scaled soft limit
#   (the target);
# * inside an iteration, once the time used passes TM_INSIDE % of the
#   target, unless the iteration in progress has changed the best move or
#   is failing low at the root: then it goes on to the hard limit, since a
#   move in doubt is the one worth the time.
#
# The measures (each a percentage, their product clamped to TM_SCALE_MIN ..
# TM_SCALE_MAX):
#
# * node share: the best move's share of the nodes searched so far. A move
#   that took nearly all of them had no rival (Ethereal and Stockfish scale
#   by it; the linear form is Ethereal's, the constants are ours);
# * stability: how many iterations in a row the best move has stayed;
# * instability: best-move changes, halved each iteration, so recent
#   changes count most (Stockfish's totBestMoveChanges);
# * falling score: the drop against the score TM_SCORE_BACK iterations ago
#   and against the previous search of this game (two plies back), as
#   Stockfish's fallingEval does; a rising score gives less time.
#
# At movetime (soft = hard) none of this applies: the move uses it all.

cdef int TM_NODE_BASE = 175     # node factor = BASE - MUL * share / 100 (percent)
cdef int TM_NODE_MUL = 110
cdef int TM_NODE_MIN = 50
cdef int TM_STABLE_BASE = 125   # stability factor = BASE - STEP * iterations unchanged
cdef int TM_STABLE_STEP = 10
cdef int TM_STABLE_MIN = 75
cdef int TM_CHANGE_MUL = 30     # instability factor = 100 + MUL * changes (halved each iteration)
cdef int TM_SCORE_BACK = 3      # falling score: against the score this many iterations ago
cdef int TM_SCORE_ITER = 15     #   percent per 10 cp of drop within this search
cdef int TM_SCORE_MOVE = 10     #   percent per 10 cp of drop since the last search of this game
cdef int TM_SCORE_MIN = 75
cdef int TM_SCORE_MAX = 170
cdef int TM_SCALE_MIN = 35      # the product, percent of the soft limit
cdef int TM_SCALE_MAX = 320
cdef int TM_INSIDE = 130        # inside an iteration: stop at this percent of the target
cdef int TM_MIN_DEPTH = 5       # no scaling below this depth (nothing is known yet)

cdef enum:
    TM_SCORES = 16              # iteration scores remembered (the falling score's reference)

cdef struct TimeScale:
    int stable                  # iterations the best move has stayed
    int changes_x100            # best-move changes, decayed, times 100
    Move last_best
    int scores[TM_SCORES]       # root score of each completed depth (index depth % TM_SCORES)
    int prev_search_score       # the last search of this game, VALUE_NONE when not known
    int percent                 # the last computed scale, percent

cdef inline int tm_clamp(int v, int lo, int hi) noexcept nogil:
    return lo if v < lo else (hi if v > hi else v)

cdef void time_scale_reset(TimeScale *ts, int prev_search_score) noexcept nogil:
    cdef int i
    ts.stable = 0
    ts.changes_x100 = 0
    ts.last_best = MOVE_NONE
    for i in range(TM_SCORES):
        ts.scores[i] = VALUE_NONE
    ts.prev_search_score = prev_search_score
    ts.percent = 100

cdef int time_scale_update(TimeScale *ts, int depth, Move best, int score, u64 best_nodes,
                           u64 all_nodes, int changes) noexcept nogil:
    """After a completed iteration: the new scale (percent of the soft limit)."""
    cdef int share, node_f, stable_f, change_f, score_f, drop_iter = 0, drop_move = 0, back
    cdef int64_t product
    if best == ts.last_best:
        ts.stable += 1
    else:
        ts.stable = 0
    ts.last_best = best
    ts.changes_x100 = ts.changes_x100 // 2 + 100 * changes
    ts.scores[depth % TM_SCORES] = score
    if depth < TM_MIN_DEPTH or score >= VALUE_TB_WIN_IN_MAX or score <= -VALUE_TB_WIN_IN_MAX:
        ts.percent = 100
        return ts.percent
    share = <int>(best_nodes * 100 // all_nodes) if all_nodes > 0 else 100
    node_f = max(TM_NODE_MIN, TM_NODE_BASE - TM_NODE_MUL * share // 100)
    stable_f = max(TM_STABLE_MIN, TM_STABLE_BASE - TM_STABLE_STEP * ts.stable)
    change_f = 100 + TM_CHANGE_MUL * ts.changes_x100 // 100
    back = TM_SCORE_BACK if TM_SCORE_BACK < TM_SCORES else TM_SCORES - 1
    if depth > back and ts.scores[(depth - back) % TM_SCORES] != VALUE_NONE:
        drop_iter = tm_clamp(ts.scores[(depth - back) % TM_SCORES] - score, -100, 100)
    if ts.prev_search_score != VALUE_NONE:
        drop_move = tm_clamp(ts.prev_search_score - score, -100, 100)
    score_f = tm_clamp(100 + (TM_SCORE_ITER * drop_iter + TM_SCORE_MOVE * drop_move) // 10,
                       TM_SCORE_MIN, TM_SCORE_MAX)
    product = <int64_t>node_f * stable_f * change_f * score_f // 1000000
    ts.percent = tm_clamp(<int>product, TM_SCALE_MIN, TM_SCALE_MAX)
    return ts.percent
