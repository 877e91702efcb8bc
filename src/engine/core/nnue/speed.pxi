# The NNUE kernels timed alone (benchmarks/nnue_speed.py): a full refresh,
# an update by one move's delta, and the output layer, each repeated over
# real positions and their legal moves with the loaded network. This is how
# the SIMD code (core/nnue/simd.h) is compared with the plain loops
# (a core built with ENGINE_SIMD=0) without the rest of the search around it.

cdef extern from *:
    """
    /* Keeps the compiler from hoisting a repeated kernel out of its timing loop. */
    static inline void vireo_clobber(void) { __asm__ __volatile__("" ::: "memory"); }
    """
    void vireo_clobber() nogil

cdef inline int64_t now_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return <int64_t>ts.tv_sec * 1000000000 + ts.tv_nsec

def nnue_kernel_speed(positions, int rounds=100):
    """Nanoseconds per refresh (both perspectives), per update (one legal
    move's delta, both perspectives) and per output (one evaluation from a
    computed accumulator), summed over `positions` (Position objects, not
    changed) and `rounds` repetitions. Returns a dict with the counts, the
    totals and "simd" (which code path the core was compiled with)."""
    if NNUE_NET == NULL:
        raise ValueError("no network is loaded")
    if rounds < 1:
        raise ValueError("rounds must be at least 1")
    cdef const NnueNet *net = NNUE_NET
    cdef Position position
    cdef Pos *local = <Pos *>malloc(sizeof(Pos))
    cdef NnueStack *stk = <NnueStack *>calloc(1, sizeof(NnueStack))
    cdef int16_t *a = <int16_t *>aligned_alloc(64, <size_t>4 * net.hidden * sizeof(int16_t))
    cdef int16_t *b
    cdef NnueDelta deltas[MAX_MOVES]
    cdef MoveList ml
    cdef int i, r, count, bucket
    cdef int64_t t0, sink = 0
    cdef int64_t refresh_ns = 0, update_ns = 0, output_ns = 0
    cdef long long refreshes = 0, updates = 0, outputs = 0
    if local == NULL or stk == NULL or a == NULL:
        free(local)
        free(stk)
        free(a)
        raise MemoryError()
    b = a + 2 * net.hidden
    try:
        if nnue_stack_fit(stk, net, 0) != 0:
            raise MemoryError()
        for position in positions:
            memcpy(local, position.pos, sizeof(Pos))
            local.nnue = NULL
            ml.count = 0
            gen_legal(local, &ml, GEN_ALL)
            count = ml.count
            # Each move's delta, recorded by do_move exactly as in the search.
            nnue_invalidate(stk, local.sp)
            local.nnue = stk
            for i in range(count):
                do_move(local, ml.moves[i])
                memcpy(&deltas[i], &stk.slots[1].delta, sizeof(NnueDelta))
                undo_move(local, ml.moves[i])
            local.nnue = NULL
            bucket = nnue_bucket(net, local)
            with nogil:
                t0 = now_ns()
                for r in range(rounds):
                    nnue_refresh(local, net, a)
                    vireo_clobber()
                refresh_ns += now_ns() - t0
                refreshes += rounds
                t0 = now_ns()
                for r in range(rounds):
                    for i in range(count):
                        nnue_apply(net, &deltas[i], a, b)
                        vireo_clobber()
                update_ns += now_ns() - t0
                updates += <long long>rounds * count
                t0 = now_ns()
                for r in range(rounds):
                    for i in range(count):
                        sink += nnue_output(net, a if i & 1 else b, i & 1, bucket)
                        vireo_clobber()
                output_ns += now_ns() - t0
                outputs += <long long>rounds * count
    finally:
        nnue_stack_free(stk)
        free(stk)
        free(local)
        free(a)
    return {"simd": simd_path(), "hidden": net.hidden,
            "refreshes": refreshes, "refresh_ns": refresh_ns,
            "updates": updates, "update_ns": update_ns,
            "outputs": outputs, "output_ns": output_ns, "checksum": sink}
