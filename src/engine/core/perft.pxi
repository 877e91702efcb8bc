# perft: count the leaves of the legal move tree, the move generator's test.
# At the last ply the leaves are counted without being played (bulk counting).

cdef u64 perft(Pos *pos, int depth) noexcept nogil:
    cdef MoveList ml
    cdef u64 nodes = 0
    cdef int i
    if depth <= 0:
        return 1
    ml.count = 0
    gen_legal(pos, &ml, GEN_ALL)
    if depth == 1:
        return ml.count
    for i in range(ml.count):
        do_move(pos, ml.moves[i])
        nodes += perft(pos, depth - 1)
        undo_move(pos, ml.moves[i])
    return nodes
