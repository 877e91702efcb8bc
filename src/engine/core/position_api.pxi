# The Python face of the core: a Position class for tests and tools.
# Everything here is cold glue; the work happens in the nogil C functions.

cdef class Position:
    """A chess position with its game history (python-chess conventions).

    Position(fen=None, chess960=False): the start position by default.
    Moves are UCI strings; in Chess960 mode castling is king-takes-rook.
    """
    cdef Pos *pos
    cdef NnueStack *stack     # accumulators, from the first nnue_eval() on

    def __cinit__(self):
        self.pos = <Pos *>malloc(sizeof(Pos))
        if self.pos == NULL:
            raise MemoryError()
        clear_position(self.pos)
        self.stack = NULL

    def __dealloc__(self):
        if self.stack != NULL:
            nnue_stack_free(self.stack)
            free(self.stack)
        free(self.pos)

    def __init__(self, fen=None, chess960=False):
        set_fen(self.pos, STARTING_FEN if fen is None else fen, bool(chess960))

    @classmethod
    def from_fen(cls, fen, chess960=False):
        return cls(fen, chess960)

    def set_fen(self, fen, chess960=None):
        """Replace the position; on a bad FEN raise ValueError and keep it."""
        set_fen(self.pos, fen, self.pos.chess960 if chess960 is None else bool(chess960))

    def copy(self):
        cdef Position other = Position.__new__(Position)
        memcpy(other.pos, self.pos, sizeof(Pos))
        other.pos.nnue = NULL     # the accumulators stay with self
        return other

    # -- NNUE (core/nnue/) ---------------------------------------------------

    def nnue_eval(self):
        """The loaded network's evaluation (centipawns, side to move), from
        accumulators kept incrementally across push/pop (as in the search).
        ValueError when no network is loaded."""
        if NNUE_NET == NULL:
            raise ValueError("no network is loaded")
        if self.stack == NULL:
            self.stack = <NnueStack *>calloc(1, sizeof(NnueStack))
            if self.stack == NULL:
                raise MemoryError()
        if self.stack.generation != NNUE_NET.generation or self.stack.hidden != NNUE_NET.hidden:
            if nnue_stack_fit(self.stack, NNUE_NET, self.pos.sp) != 0:
                raise MemoryError("cannot allocate the NNUE accumulators")
        self.pos.nnue = self.stack
        return nnue_evaluate(self.pos)

    def nnue_search_eval(self):
        """nnue_eval as the search reads it: at the classical evaluation's
        scale (times 4/5, core/nnue/infer.pxi), the static evaluation that
        its pruning margins and reported scores start from."""
        return nnue_search_scale(self.nnue_eval())

    def nnue_eval_full(self):
        """The same evaluation from a full refresh (the oracle for nnue_eval)."""
        cdef int16_t *scratch
        cdef int64_t value
        if NNUE_NET == NULL:
            raise ValueError("no network is loaded")
        scratch = <int16_t *>malloc(2 * NNUE_NET.hidden * sizeof(int16_t))
        if scratch == NULL:
            raise MemoryError()
        value = nnue_evaluate_full(self.pos, scratch)
        free(scratch)
        return value

    def nnue_accumulators(self, full=False):
        """The two accumulators [white's, black's] as lists of H ints, from
        the incremental stack or (full=True) a fresh refresh (tests)."""
        cdef int16_t *acc
        cdef int h, p, j
        self.nnue_eval()
        h = NNUE_NET.hidden
        if full:
            acc = <int16_t *>malloc(2 * h * sizeof(int16_t))
            if acc == NULL:
                raise MemoryError()
            nnue_refresh(self.pos, NNUE_NET, acc)
        else:
            acc = nnue_accumulator(self.pos, NNUE_NET)
        result = [[acc[p * h + j] for j in range(h)] for p in range(2)]
        if full:
            free(acc)
        return result

    def fen(self, shredder=False):
        return get_fen(self.pos, shredder)

    @property
    def chess960(self):
        return bool(self.pos.chess960)

    @chess960.setter
    def chess960(self, value):
        self.pos.chess960 = bool(value)

    @property
    def key(self):
        """Polyglot Zobrist key (equals chess.polyglot.zobrist_hash)."""
        return self.pos.st[self.pos.sp].key

    @property
    def turn(self):
        """True when white is to move (as python-chess's Board.turn)."""
        return self.pos.side == WHITE

    @property
    def halfmove_clock(self):
        return self.pos.st[self.pos.sp].halfmove

    @property
    def fullmove_number(self):
        return self.pos.fullmove

    @property
    def ply(self):
        """Number of moves pushed since the position was set."""
        return self.pos.sp

    def in_check(self):
        return self.pos.st[self.pos.sp].checkers != 0

    def legal_moves(self):
        cdef MoveList ml
        ml.count = 0
        gen_legal(self.pos, &ml, GEN_ALL)
        return [move_to_uci(self.pos, ml.moves[i], self.pos.chess960) for i in range(ml.count)]

    def is_legal(self, uci):
        return isinstance(uci, str) and parse_uci_move(self.pos, uci) != MOVE_NONE

    def push(self, uci):
        """Play a legal move given in UCI; ValueError if it is not legal here."""
        if not isinstance(uci, str):
            raise ValueError("a move must be a UCI string")
        cdef Move m = parse_uci_move(self.pos, uci)
        if m == MOVE_NONE:
            raise ValueError(f"illegal or malformed move {uci!r} in {get_fen(self.pos, False)}")
        if self.pos.sp >= MAX_STATES - MAX_PLY - 2:
            raise ValueError("game too long: the move history is full")
        do_move(self.pos, m)

    def pop(self):
        """Take back the last pushed move and return it."""
        if self.pos.sp == 0:
            raise IndexError("no move to take back")
        cdef Move m = self.pos.st[self.pos.sp].move
        if m == MOVE_NULL:
            undo_null_move(self.pos)
            return "0000"
        undo_move(self.pos, m)
        return move_to_uci(self.pos, m, self.pos.chess960)

    def push_null(self):
        if self.pos.st[self.pos.sp].checkers:
            raise ValueError("no null move while in check")
        if self.pos.sp >= MAX_STATES - MAX_PLY - 2:
            raise ValueError("game too long: the move history is full")
        do_null_move(self.pos)

    def is_repetition(self, count=1):
        """True when the position occurred `count` times before in the game."""
        return bool(is_repetition(self.pos, count))

    def is_insufficient_material(self):
        return bool(insufficient_material(self.pos))

    def perft(self, int depth):
        cdef u64 nodes
        if depth < 0:
            raise ValueError("perft depth must be >= 0")
        with nogil:
            nodes = perft(self.pos, depth)
        return nodes

    def divide(self, int depth):
        """{move: leaf count below it} for each legal move (depth >= 1)."""
        cdef MoveList ml
        cdef u64 nodes
        cdef int i
        if depth < 1:
            raise ValueError("divide depth must be >= 1")
        ml.count = 0
        gen_legal(self.pos, &ml, GEN_ALL)
        result = {}
        for i in range(ml.count):
            do_move(self.pos, ml.moves[i])
            with nogil:
                nodes = perft(self.pos, depth - 1)
            undo_move(self.pos, ml.moves[i])
            result[move_to_uci(self.pos, ml.moves[i], self.pos.chess960)] = nodes
        return result

    def piece_at(self, int square):
        """python-chess style (piece_type, color) or None; color True = white."""
        if not 0 <= square < 64:
            raise ValueError("square out of range")
        pc = self.pos.board[square]
        return None if pc == 0 else (type_of(pc), color_of(pc) == WHITE)

    def __repr__(self):
        return f"Position({self.fen()!r})"
