# The evaluation's Python face: the `eval` command's breakdown, the weights
# for the tuner, feature traces, and a speed probe. Cold code.

from libc.stdlib cimport malloc, calloc, free, realloc
from libc.string cimport memset, memcpy
from time import perf_counter as _perf_counter


cdef int trace_position(const Pos *pos, int32_t *counts, int *phase, int *scale) noexcept nogil:
    memset(counts, 0, N_WEIGHTS * sizeof(int32_t))
    return eval_trace(pos, NULL, counts, phase, scale)


cdef dict eval_terms_of(const Pos *pos):
    """{term: (mg, eg)} in white's view, "total": (mg, eg), and the ints
    "phase" (0..24), "scale" (endgame scale out of 128) and "score"
    (centipawns, white's view; -score when black is to move = evaluate())."""
    cdef int32_t counts[N_WEIGHTS]
    cdef int phase, scale, score, i
    score = trace_position(pos, counts, &phase, &scale)
    terms = {}
    total_mg = total_eg = 0
    for name, start, size, term in eval_layout():
        mg = eg = 0
        for i in range(start, start + size):
            if counts[i]:
                mg += counts[i] * W_MG[i]
                eg += counts[i] * W_EG[i]
        old = terms.get(term, (0, 0))
        terms[term] = (old[0] + mg, old[1] + eg)
        total_mg += mg
        total_eg += eg
    terms["total"] = (total_mg, total_eg)
    terms["phase"] = phase
    terms["scale"] = scale
    terms["score"] = score
    return terms


def eval_terms(Position p):
    """The evaluation of p, term by term, for the UCI `eval` command.

    Returns {term: (mg, eg)} for the terms "material", "psqt", "mobility",
    "pawns", "passed", "king_safety", "pieces", "threats", "tempo" (white's
    view, before tapering), "total": (mg, eg), and three ints: "phase" (24 =
    all pieces on, 0 = pawn ending), "scale" (endgame scale factor out of 128)
    and "score" (final centipawns, white's view).
    """
    return eval_terms_of(p.pos)


def static_eval(Position p):
    """evaluate(): centipawns from the side to move's point of view."""
    return evaluate(p.pos, NULL)


def eval_features(Position p):
    """(counts, phase, scale): the feature count of every weight (white minus
    black; list of eval_weight_count() ints), the game phase (0..24) and the
    endgame scale (out of 128) -- what the Texel tuner fits against."""
    cdef int32_t counts[N_WEIGHTS]
    cdef int phase, scale
    trace_position(p.pos, counts, &phase, &scale)
    return [counts[i] for i in range(N_WEIGHTS)], phase, scale


def eval_features_batch(fens):
    """Trace many FENs at once for the tuner. Returns a dict of bytes buffers
    (numpy.frombuffer): "rows" int32 (position index of each non-zero
    count), "cols" int32 (weight index), "vals" int16 (count), "phase" int16,
    "scale" int16, "score" int32 (the evaluation, white's view), one per
    position in the order given. A bad FEN raises ValueError naming it."""
    cdef Pos *pos = <Pos *>malloc(sizeof(Pos))
    cdef int32_t counts[N_WEIGHTS]
    cdef int phase, scale, i, k = 0
    cdef int n = len(fens), cap = 64 * n + 64, nnz = 0
    cdef int32_t *rows = <int32_t *>malloc(cap * sizeof(int32_t))
    cdef int32_t *cols = <int32_t *>malloc(cap * sizeof(int32_t))
    cdef int16_t *vals = <int16_t *>malloc(cap * sizeof(int16_t))
    cdef int16_t *phases = <int16_t *>malloc((n + 1) * sizeof(int16_t))
    cdef int16_t *scales = <int16_t *>malloc((n + 1) * sizeof(int16_t))
    cdef int32_t *scores = <int32_t *>malloc((n + 1) * sizeof(int32_t))
    try:
        if not (pos and rows and cols and vals and phases and scales and scores):
            raise MemoryError()
        clear_position(pos)
        for fen in fens:
            try:
                set_fen(pos, fen, False)
            except ValueError as exc:
                raise ValueError(f"position {k}: {exc}") from None
            scores[k] = trace_position(pos, counts, &phase, &scale)
            phases[k] = phase
            scales[k] = scale
            if nnz + N_WEIGHTS > cap:
                cap = 2 * cap + N_WEIGHTS
                rows = <int32_t *>realloc(rows, cap * sizeof(int32_t))
                cols = <int32_t *>realloc(cols, cap * sizeof(int32_t))
                vals = <int16_t *>realloc(vals, cap * sizeof(int16_t))
                if not (rows and cols and vals):
                    raise MemoryError()
            for i in range(N_WEIGHTS):
                if counts[i]:
                    rows[nnz] = k
                    cols[nnz] = i
                    vals[nnz] = counts[i]
                    nnz += 1
            k += 1
        return {
            "rows": (<char *>rows)[:nnz * sizeof(int32_t)],
            "cols": (<char *>cols)[:nnz * sizeof(int32_t)],
            "vals": (<char *>vals)[:nnz * sizeof(int16_t)],
            "phase": (<char *>phases)[:k * sizeof(int16_t)],
            "scale": (<char *>scales)[:k * sizeof(int16_t)],
            "score": (<char *>scores)[:k * sizeof(int32_t)],
        }
    finally:
        free(pos); free(rows); free(cols); free(vals); free(phases); free(scales); free(scores)


def get_eval_weights():
    """All weights as a list of (mg, eg), in layout order (eval_layout())."""
    return [(W_MG[i], W_EG[i]) for i in range(N_WEIGHTS)]


def get_eval_weight_groups():
    """{group name: [(mg, eg), ...]}: the form weights.pxi is written in."""
    return {name: [(W_MG[i], W_EG[i]) for i in range(start, start + size)]
            for name, start, size, _ in eval_layout()}


def set_eval_weights(weights):
    """Replace the weights: a list of eval_weight_count() (mg, eg) pairs, or a
    {group: pairs} dict. Rebuilds the piece-square tables and clears the pawn
    table. Positions built before keep their old incremental psq: build new
    ones (from FEN) after the call."""
    if isinstance(weights, dict):
        old = get_eval_weight_groups()
        try:
            load_weight_groups(weights)
        except Exception:
            load_weight_groups(old)
            raise
    else:
        pairs = [(int(mg), int(eg)) for mg, eg in weights]
        if len(pairs) != N_WEIGHTS:
            raise ValueError(f"need {N_WEIGHTS} (mg, eg) pairs, got {len(pairs)}")
        for i, (mg, eg) in enumerate(pairs):
            W_MG[i] = mg
            W_EG[i] = eg
    init_eval()


def reset_eval_weights():
    """Back to the compiled-in weights (weights.pxi)."""
    set_eval_weights(DEFAULT_EVAL_WEIGHTS)


def psq_incremental_and_scratch(Position p):
    """((mg, eg) kept by make/unmake, (mg, eg) recomputed from the board)."""
    cdef EvalInfo ei
    ei.mg[0] = ei.mg[1] = ei.eg[0] = ei.eg[1] = 0
    ei.trace = NULL
    psq_terms(p.pos, &ei)
    return ((p.pos.psq[0], p.pos.psq[1]),
            (ei.mg[WHITE] - ei.mg[BLACK], ei.eg[WHITE] - ei.eg[BLACK]))


def eval_benchmark(fens, int repeat=10, bint pawn_table=True):
    """(evaluations, seconds): evaluate() over the positions `repeat` times,
    in C without the GIL; pawn_table=False measures without the pawn cache."""
    cdef int n = len(fens), i, r
    cdef Pos *pos = <Pos *>malloc(sizeof(Pos))
    # evaluate() reads the board and st[sp] only: keep each position's head
    # (everything up to st[0] included) instead of whole Pos structs.
    cdef size_t head = <size_t>(<char *>&pos.st[1] - <char *>pos)
    cdef char *block = <char *>malloc(n * head + 1)
    # this call's own pawn table, as a search thread has one
    cdef PawnEntry *pawns = <PawnEntry *>calloc(1 << PAWN_TABLE_BITS, sizeof(PawnEntry))
    cdef long long sink = 0
    global USE_PAWN_TABLE
    was_on = USE_PAWN_TABLE
    try:
        if pos == NULL or block == NULL or pawns == NULL:
            raise MemoryError()
        clear_position(pos)
        for i, fen in enumerate(fens):
            set_fen(pos, fen, False)
            memcpy(block + i * head, pos, head)
        USE_PAWN_TABLE = pawn_table
        t0 = _perf_counter()
        with nogil:
            for r in range(repeat):
                for i in range(n):
                    sink += evaluate(<Pos *>(block + i * head), pawns)
        seconds = _perf_counter() - t0
    finally:
        USE_PAWN_TABLE = was_on
        free(pawns)
        free(block)
        free(pos)
    return n * repeat, seconds


def set_pawn_table_enabled(bint enabled):
    """Turn the pawn hash table off or on (to measure what it brings; on by
    default). Not for use while a search runs."""
    global USE_PAWN_TABLE
    USE_PAWN_TABLE = enabled
