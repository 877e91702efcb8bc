# Evaluation (placeholder: material only, until the evaluation lands).
# evaluate() returns centipawns from the side to move's point of view.

cdef int32_t PIECE_VALUE_MG[7]
cdef int32_t PIECE_VALUE_EG[7]
PIECE_VALUE_MG[:] = [0, 82, 337, 365, 477, 1025, 0]
PIECE_VALUE_EG[:] = [0, 94, 281, 297, 512, 936, 0]

cdef void init_eval() noexcept nogil:
    cdef int color, pt, sq, sign
    cdef int phase_of[7]
    phase_of[:] = [0, 0, 1, 1, 2, 4, 0]
    for color in range(2):
        sign = 1 if color == WHITE else -1
        for pt in range(PAWN, KING + 1):
            PHASE_INC[make_piece(color, pt)] = phase_of[pt]
            for sq in range(64):
                PSQ_MG[make_piece(color, pt)][sq] = sign * PIECE_VALUE_MG[pt]
                PSQ_EG[make_piece(color, pt)][sq] = sign * PIECE_VALUE_EG[pt]

cdef int evaluate(Pos *pos) noexcept nogil:
    cdef int phase = pos.phase if pos.phase < 24 else 24
    cdef int score = (pos.psq[0] * phase + pos.psq[1] * (24 - phase)) // 24
    return score if pos.side == WHITE else -score
