# Transposition table, shared by all search threads.
#
# A bucket is one 64-byte cache line holding four 16-byte entries. An entry is
# two 64-bit words: `data` (move, score, static eval, depth, bound, pv flag,
# generation) and `check` = key ^ data. Threads read and write the words
# without locks; a probe accepts an entry only when check ^ data equals the
# full 64-bit key, so an entry torn by two writers racing (one word from each)
# fails the test and reads as a miss (Hyatt and Mann's "lockless hashing").
#
# data layout, bit by bit:
#   0-15   move (MOVE_NONE when unknown)
#   16-31  score, int16 (ply-relative for mate/TB scores, see value_to_tt)
#   32-47  static evaluation, int16 (VALUE_NONE when in check)
#   48-55  depth + TT_DEPTH_OFFSET (so that data != 0 for every stored entry)
#   56-57  bound: BOUND_UPPER 1, BOUND_LOWER 2, BOUND_EXACT 3 (0: eval only)
#   58     pv flag: the position was on a principal variation
#   59-63  generation of the search that wrote it (5 bits, wraps)

from libc.stdlib cimport malloc, free
from libc.string cimport memset

cdef extern from *:
    """
    #include <stdint.h>
    #include <stdlib.h>
    #include <unistd.h>
    static inline uint64_t tt_load(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }
    static inline void tt_put(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    /* bucket index = high 64 bits of key * count: uniform for any table size */
    static inline uint64_t mul_hi64(uint64_t a, uint64_t b) {
        return (uint64_t)(((unsigned __int128)a * b) >> 64);
    }
    static inline void prefetch_addr(const void *p) { __builtin_prefetch(p); }
    #include <sys/mman.h>
    /* 2 MB aligned, and transparent huge pages asked for: a probe is then
       one cache miss without a TLB miss (the kernel here uses THP only
       where madvise asks). */
    static void *aligned_alloc64(size_t size) {
        void *p = NULL;
        size_t align = size >= (2u << 20) ? (2u << 20) : 64;
        if (posix_memalign(&p, align, size) != 0) return NULL;
    #ifdef MADV_HUGEPAGE
        if (align > 64) madvise(p, size, MADV_HUGEPAGE);
    #endif
        return p;
    }
    static uint64_t physical_memory_bytes(void) {
        long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
        return (pages > 0 && size > 0) ? (uint64_t)pages * (uint64_t)size : 0;
    }
    """
    u64 tt_load(const u64 *p) noexcept nogil
    void tt_put(u64 *p, u64 v) noexcept nogil
    u64 mul_hi64(u64 a, u64 b) noexcept nogil
    void prefetch_addr(const void *p) noexcept nogil
    void *aligned_alloc64(size_t size) noexcept nogil
    u64 physical_memory_bytes() noexcept nogil

cdef enum:
    BOUND_NONE = 0
    BOUND_UPPER = 1
    BOUND_LOWER = 2
    BOUND_EXACT = 3
    TT_DEPTH_OFFSET = 2     # stored depth; DEPTH_EVAL_ONLY (-1) stores as 1
    DEPTH_QS = 0            # depth of quiescence entries
    DEPTH_EVAL_ONLY = -1    # entry that only caches the static evaluation
    TT_ENTRIES = 4          # entries per bucket

cdef struct TTEntry:
    u64 check               # key ^ data
    u64 data

cdef struct TTBucket:
    TTEntry e[4]

cdef struct TTable:
    TTBucket *buckets
    u64 count               # number of buckets
    int generation          # 0..31, advanced once per search

cdef struct TTHit:
    Move move
    int score               # raw stored score (not yet adjusted by ply)
    int eval
    int depth
    int bound
    int pv

cdef inline TTBucket *tt_bucket(TTable *tt, u64 key) noexcept nogil:
    return tt.buckets + mul_hi64(key, tt.count)

cdef inline void tt_prefetch(TTable *tt, u64 key) noexcept nogil:
    prefetch_addr(tt_bucket(tt, key))

cdef inline void tt_decode(u64 data, TTHit *hit) noexcept nogil:
    hit.move = <Move>(data & 0xFFFF)
    hit.score = <int16_t>((data >> 16) & 0xFFFF)
    hit.eval = <int16_t>((data >> 32) & 0xFFFF)
    hit.depth = <int>((data >> 48) & 0xFF) - TT_DEPTH_OFFSET
    hit.bound = <int>((data >> 56) & 3)
    hit.pv = <int>((data >> 58) & 1)

cdef bint tt_probe(TTable *tt, u64 key, TTHit *hit) noexcept nogil:
    """Fill hit and return True when the table holds an entry for key."""
    cdef TTBucket *b = tt_bucket(tt, key)
    cdef u64 data, check
    cdef int i
    for i in range(TT_ENTRIES):
        data = tt_load(&b.e[i].data)
        check = tt_load(&b.e[i].check)
        if data != 0 and (check ^ data) == key:
            tt_decode(data, hit)
            return True
    return False

cdef inline int tt_age(TTable *tt, u64 data) noexcept nogil:
    return (tt.generation - <int>(data >> 59)) & 31

cdef void tt_store(TTable *tt, u64 key, int depth, int score, int eval, Move move,
                   int bound, bint pv) noexcept nogil:
    """Write an entry. Replacement: the entry of the same position if any
    (keeping its move when we have none, and keeping a deeper entry of the
    current search unless ours is exact); otherwise the entry with the least
    depth - 8 * age (empty slots first)."""
    cdef TTBucket *b = tt_bucket(tt, key)
    cdef TTEntry *target = NULL
    cdef u64 data, check, new_data
    cdef int i, worth, best_worth = 1 << 30, old_depth
    for i in range(TT_ENTRIES):
        data = tt_load(&b.e[i].data)
        check = tt_load(&b.e[i].check)
        if data != 0 and (check ^ data) == key:
            old_depth = <int>((data >> 48) & 0xFF)
            if move == MOVE_NONE:
                move = <Move>(data & 0xFFFF)
            if bound != BOUND_EXACT and tt_age(tt, data) == 0 \
                    and depth + TT_DEPTH_OFFSET + 2 * pv + 4 <= old_depth:
                # Only refresh the move of the deeper entry.
                if move != <Move>(data & 0xFFFF):
                    new_data = (data & ~<u64>0xFFFF) | move
                    tt_put(&b.e[i].data, new_data)
                    tt_put(&b.e[i].check, key ^ new_data)
                return
            target = &b.e[i]
            break
        worth = -1000 if data == 0 else <int>((data >> 48) & 0xFF) - 8 * tt_age(tt, data)
        if worth < best_worth:
            best_worth = worth
            target = &b.e[i]
    if depth < DEPTH_EVAL_ONLY:
        depth = DEPTH_EVAL_ONLY
    if depth > 250:
        depth = 250
    new_data = (<u64>move
                | (<u64>(<uint16_t>(<int16_t>score)) << 16)
                | (<u64>(<uint16_t>(<int16_t>eval)) << 32)
                | (<u64>(depth + TT_DEPTH_OFFSET) << 48)
                | (<u64>bound << 56)
                | (<u64>(1 if pv else 0) << 58)
                | (<u64>tt.generation << 59))
    tt_put(&target.data, new_data)
    tt_put(&target.check, key ^ new_data)

cdef void tt_clear(TTable *tt) noexcept nogil:
    memset(tt.buckets, 0, tt.count * sizeof(TTBucket))
    tt.generation = 0

cdef inline void tt_new_search(TTable *tt) noexcept nogil:
    tt.generation = (tt.generation + 1) & 31

cdef int tt_hashfull(TTable *tt) noexcept nogil:
    """Per mille of entries written by the current search, sampled on the
    first 1000 entries (250 buckets) as Stockfish does."""
    cdef u64 i, n = 250 if tt.count >= 250 else tt.count
    cdef int j, used = 0
    cdef u64 data
    for i in range(n):
        for j in range(TT_ENTRIES):
            data = tt_load(&tt.buckets[i].e[j].data)
            if data != 0 and tt_age(tt, data) == 0:
                used += 1
    return <int>(used * 1000 // (n * TT_ENTRIES)) if n else 0

cdef int tt_resize(TTable *tt, u64 mb) noexcept nogil:
    """Allocate a cleared table of mb megabytes. Returns 0, or -1 (old table
    kept) when the request is larger than physical memory or malloc fails."""
    cdef u64 nbytes = mb * 1024 * 1024
    cdef u64 phys = physical_memory_bytes()
    cdef TTBucket *fresh
    if mb == 0 or mb > (<u64>1 << 40) or (phys != 0 and nbytes > phys):
        return -1
    fresh = <TTBucket *>aligned_alloc64(nbytes)
    if fresh == NULL:
        return -1
    if tt.buckets != NULL:
        free(tt.buckets)
    tt.buckets = fresh
    tt.count = nbytes // sizeof(TTBucket)
    tt_clear(tt)
    return 0

cdef void tt_free(TTable *tt) noexcept nogil:
    if tt.buckets != NULL:
        free(tt.buckets)
    tt.buckets = NULL
    tt.count = 0
