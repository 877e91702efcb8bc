# The static evaluation of many positions in one call, without the GIL
# (engine.api's evaluate_many is the public face).
#
# Positions come as FEN text or as the piece bitboards of python-chess boards.
# FEN text is read here by a strict C reader of the common forms: every FEN it
# accepts, set_fen accepts too (tests/api/test_evaluate_many.py checks that on
# mutated FENs), and anything else (another castling form, odd spacing, an
# error) is marked BATCH_DEFER for the caller, who reads it with set_fen and
# so gets set_fen's own error message. The evaluation is the search's static
# evaluation (eval_for_search before any correction): the network from a full
# refresh at the search's scale, or the classical evaluation.

from cpython.unicode cimport PyUnicode_AsUTF8AndSize

cdef enum:
    BATCH_OK = 0
    BATCH_DEFER = 1          # not read here: set_fen decides
    BATCH_KINGS = 2          # not exactly one king a side
    BATCH_TOO_MANY = 3       # more than 16 pieces a side
    BATCH_PAWN_RANK = 4      # a pawn on the first or last rank
    BATCH_OPPOSITE_CHECK = 5 # the side not to move is in check
    BATCH_OVERLAP = 6        # bitboards that claim one square twice

BATCH_DEFERRED = BATCH_DEFER
BATCH_MESSAGES = {
    BATCH_KINGS: "each side needs exactly one king",
    BATCH_TOO_MANY: "a side has more than 16 pieces",
    BATCH_PAWN_RANK: "a pawn stands on the first or last rank",
    BATCH_OPPOSITE_CHECK: "the side not to move is in check",
    BATCH_OVERLAP: "the piece bitboards overlap",
}

cdef int check_placement(Pos *pos) noexcept nogil:
    """set_fen's rules on the pieces alone (validate_material, the check test)."""
    if bb_count(pieces_of(pos, WHITE, KING)) != 1 or bb_count(pieces_of(pos, BLACK, KING)) != 1:
        return BATCH_KINGS
    if bb_count(pos.by_color[WHITE]) > 16 or bb_count(pos.by_color[BLACK]) > 16:
        return BATCH_TOO_MANY
    if pos.by_type[PAWN] & (RANK_1 | RANK_8):
        return BATCH_PAWN_RANK
    if sq_attacked(pos, king_sq(pos, pos.side ^ 1), pos.side, pos.by_type[0]):
        return BATCH_OPPOSITE_CHECK
    return BATCH_OK

cdef int piece_code(char c) noexcept nogil:
    if c == c'P': return make_piece(WHITE, PAWN)
    if c == c'N': return make_piece(WHITE, KNIGHT)
    if c == c'B': return make_piece(WHITE, BISHOP)
    if c == c'R': return make_piece(WHITE, ROOK)
    if c == c'Q': return make_piece(WHITE, QUEEN)
    if c == c'K': return make_piece(WHITE, KING)
    if c == c'p': return make_piece(BLACK, PAWN)
    if c == c'n': return make_piece(BLACK, KNIGHT)
    if c == c'b': return make_piece(BLACK, BISHOP)
    if c == c'r': return make_piece(BLACK, ROOK)
    if c == c'q': return make_piece(BLACK, QUEEN)
    if c == c'k': return make_piece(BLACK, KING)
    return 0

cdef int read_board(Pos *pos, const char *s, Py_ssize_t n) noexcept nogil:
    """The placement field: 8 ranks of exactly 8 squares, no two digits in a row."""
    cdef Py_ssize_t i
    cdef int rank = 7, f = 0, pc
    cdef bint digit = False
    for i in range(n):
        if s[i] == c'/':
            if f != 8 or rank == 0:
                return BATCH_DEFER
            rank -= 1
            f = 0
            digit = False
        elif c'1' <= s[i] <= c'8':
            if digit:
                return BATCH_DEFER
            f += s[i] - c'0'
            if f > 8:
                return BATCH_DEFER
            digit = True
        else:
            pc = piece_code(s[i])
            if pc == 0 or f >= 8:
                return BATCH_DEFER
            put_piece(pos, pc, 8 * rank + f)
            f += 1
            digit = False
    return BATCH_OK if rank == 0 and f == 8 else BATCH_DEFER

cdef int read_castling(Pos *pos, const char *s, Py_ssize_t n, bint chess960) noexcept nogil:
    """"-" or standard KQkq rights in FEN order with the king on e1/e8 and the
    rook in its corner (what set_fen accepts in standard chess); in Chess960
    only "-" (set_fen reads the rest)."""
    cdef Py_ssize_t i
    cdef int seen = 0, bit, color, back, corner
    if n == 1 and s[0] == c'-':
        return BATCH_OK
    if chess960:
        return BATCH_DEFER
    for i in range(n):
        if s[i] == c'K': bit, color, corner = 1, WHITE, 7
        elif s[i] == c'Q': bit, color, corner = 2, WHITE, 0
        elif s[i] == c'k': bit, color, corner = 4, BLACK, 7
        elif s[i] == c'q': bit, color, corner = 8, BLACK, 0
        else:
            return BATCH_DEFER
        if seen >= bit:               # a repeat, or out of KQkq order
            return BATCH_DEFER
        seen |= bit
        back = 0 if color == WHITE else 56
        if pos.board[back + 4] != make_piece(color, KING) or pos.board[back + corner] != make_piece(color, ROOK):
            return BATCH_DEFER
    return BATCH_OK

cdef int read_ep(Pos *pos, const char *s, Py_ssize_t n) noexcept nogil:
    """"-" or a square a pawn has just passed with a two-square move (parse_ep)."""
    cdef int sq, push
    if n == 1 and s[0] == c'-':
        return BATCH_OK
    if n != 2 or not (c'a' <= s[0] <= c'h') or s[1] != (c'6' if pos.side == WHITE else c'3'):
        return BATCH_DEFER
    sq = (s[0] - c'a') + 8 * (s[1] - c'1')
    push = -8 if pos.side == WHITE else 8
    if pos.board[sq] or pos.board[sq - push] or pos.board[sq + push] != make_piece(pos.side ^ 1, PAWN):
        return BATCH_DEFER
    return BATCH_OK

cdef int read_counter(const char *s, Py_ssize_t n) noexcept nogil:
    """Digits only, at most 100000 (parse_counter)."""
    cdef Py_ssize_t i
    cdef long value = 0
    if n < 1 or n > 6:
        return BATCH_DEFER
    for i in range(n):
        if not (c'0' <= s[i] <= c'9'):
            return BATCH_DEFER
        value = 10 * value + (s[i] - c'0')
    return BATCH_OK if value <= 100000 else BATCH_DEFER

cdef int read_fen(Pos *pos, const char *s, Py_ssize_t n, bint chess960) noexcept nogil:
    """The FEN into pos (cleared first): BATCH_OK or BATCH_DEFER."""
    cdef Py_ssize_t start[6]
    cdef Py_ssize_t length[6]
    cdef Py_ssize_t i = 0, j
    cdef int fields = 0, status
    clear_position(pos)
    while i < n:
        if s[i] == c' ':
            i += 1
            continue
        if s[i] < 33 or s[i] > 126 or fields == 6:    # other whitespace, non-ASCII, a 7th field
            return BATCH_DEFER
        j = i
        while j < n and s[j] != c' ':
            j += 1
        start[fields], length[fields] = i, j - i
        fields += 1
        i = j
    if fields < 4:
        return BATCH_DEFER
    status = read_board(pos, s + start[0], length[0])
    if status != BATCH_OK:
        return status
    if length[1] != 1 or (s[start[1]] != c'w' and s[start[1]] != c'b'):
        return BATCH_DEFER
    pos.side = WHITE if s[start[1]] == c'w' else BLACK
    if check_placement(pos) != BATCH_OK:
        return BATCH_DEFER
    if read_castling(pos, s + start[2], length[2], chess960) != BATCH_OK:
        return BATCH_DEFER
    if read_ep(pos, s + start[3], length[3]) != BATCH_OK:
        return BATCH_DEFER
    for j in range(4, fields):
        if read_counter(s + start[j], length[j]) != BATCH_OK:
            return BATCH_DEFER
    return BATCH_OK

cdef int batch_static_eval(Pos *pos, int16_t *scratch, bint use_nnue) noexcept nogil:
    """The search's static evaluation of a position set up from pieces and side."""
    pos.st[0].checkers = attackers_to(pos, king_sq(pos, pos.side), pos.by_type[0]) & pos.by_color[pos.side ^ 1]
    compute_keys(pos)
    if use_nnue:
        return clamp_eval(nnue_search_scale(nnue_evaluate_full(pos, scratch)))
    return clamp_eval(evaluate(pos, NULL))

cdef class _BatchScratch:
    """One Pos and one accumulator pair for a batch; the network held (no
    swap while the loop runs without the GIL)."""
    cdef Pos *pos
    cdef int16_t *acc
    cdef bint use_nnue
    cdef bint holding

    def __cinit__(self, bint use_nnue):
        global NNUE_BUSY
        self.use_nnue = use_nnue
        if use_nnue and NNUE_NET == NULL:
            raise ValueError("use_nnue is on but no network is loaded")
        self.pos = <Pos *>malloc(sizeof(Pos))
        self.acc = <int16_t *>aligned_alloc(64, 2 * (NNUE_NET.hidden if use_nnue else 32) * sizeof(int16_t))
        if self.pos == NULL or self.acc == NULL:
            raise MemoryError()
        if use_nnue:
            NNUE_BUSY += 1
            self.holding = True

    def __dealloc__(self):
        global NNUE_BUSY
        if self.holding:
            NNUE_BUSY -= 1
        free(self.pos)
        free(self.acc)

def static_eval_fens(list fens, int32_t[::1] out, uint8_t[::1] status, bint use_nnue, bint chess960=False):
    """out[i] = the static evaluation (centipawns, side to move) of fens[i],
    status[i] = BATCH_OK; or status[i] = BATCH_DEFER (out[i] untouched) for a
    FEN this reader leaves to set_fen. fens must hold str only."""
    cdef Py_ssize_t n = len(fens), i
    cdef _BatchScratch scratch
    if out.shape[0] < n or status.shape[0] < n:
        raise ValueError("out and status need room for every FEN")
    cdef const char **text = <const char **>malloc((n + 1) * sizeof(char *))
    cdef Py_ssize_t *size = <Py_ssize_t *>malloc((n + 1) * sizeof(Py_ssize_t))
    if text == NULL or size == NULL:
        free(text)
        free(size)
        raise MemoryError()
    try:
        for i in range(n):
            item = fens[i]
            if type(item) is not str:
                raise TypeError(f"item {i} is not a str")
            text[i] = PyUnicode_AsUTF8AndSize(item, &size[i])   # the list keeps the text alive
        scratch = _BatchScratch(use_nnue)
        with nogil:
            for i in range(n):
                status[i] = read_fen(scratch.pos, text[i], size[i], chess960)
                if status[i] == BATCH_OK:
                    out[i] = batch_static_eval(scratch.pos, scratch.acc, use_nnue)
    finally:
        free(text)
        free(size)

def static_eval_bitboards(const uint64_t[:, ::1] pieces, const uint8_t[::1] turns, int32_t[::1] out,
                          uint8_t[::1] status, bint use_nnue):
    """The same from bitboards: pieces[i] = (white, black, pawns, knights,
    bishops, rooks, queens, kings), python-chess's occupied_co and piece
    bitboards; turns[i] 1 for white to move. status[i] names a placement
    the core refuses (BATCH_MESSAGES) instead of evaluating it."""
    cdef Py_ssize_t n = pieces.shape[0], i
    cdef int pt, sq, color
    cdef u64 bb, union_types, counted
    cdef _BatchScratch scratch
    if pieces.shape[1] != 8 or turns.shape[0] < n or out.shape[0] < n or status.shape[0] < n:
        raise ValueError("pieces must be (n, 8); turns, out and status need n entries")
    scratch = _BatchScratch(use_nnue)
    cdef Pos *pos = scratch.pos
    with nogil:
        for i in range(n):
            clear_position(pos)
            union_types = 0
            counted = 0
            for pt in range(PAWN, KING + 1):
                union_types |= pieces[i, pt + 1]
                counted += bb_count(pieces[i, pt + 1])
            if (pieces[i, 0] & pieces[i, 1]) or union_types != (pieces[i, 0] | pieces[i, 1]) \
                    or counted != <u64>bb_count(union_types):
                status[i] = BATCH_OVERLAP
                continue
            for pt in range(PAWN, KING + 1):
                for color in range(2):
                    bb = pieces[i, pt + 1] & pieces[i, color]
                    while bb:
                        sq = bb_pop(&bb)
                        put_piece(pos, make_piece(color, pt), sq)
            pos.side = WHITE if turns[i] else BLACK
            status[i] = check_placement(pos)
            if status[i] == BATCH_OK:
                out[i] = batch_static_eval(pos, scratch.acc, use_nnue)

def static_eval_position(Position p not None, bint use_nnue):
    """The same for one Position (a FEN the C reader leaves to set_fen)."""
    cdef _BatchScratch scratch = _BatchScratch(use_nnue)
    cdef int sq
    clear_position(scratch.pos)
    for sq in range(64):
        if p.pos.board[sq]:
            put_piece(scratch.pos, p.pos.board[sq], sq)
    scratch.pos.side = p.pos.side
    return batch_static_eval(scratch.pos, scratch.acc, use_nnue)
