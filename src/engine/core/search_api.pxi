# The Python face of the search: the Search class (docs/core-api.md).
#
# go() copies the position into every thread, releases the GIL, starts the
# Lazy SMP helpers as POSIX threads, runs the main thread's iterative
# deepening in the calling thread, and joins the helpers once the main thread
# is done. Reports (info lines) and tablebase probes take the GIL from inside
# the search; everything else runs without it.

from libc.stdlib cimport calloc

cdef extern from "<pthread.h>" nogil:
    ctypedef unsigned long pthread_t
    ctypedef struct pthread_attr_t:
        pass
    int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                       void *(*start)(void *) noexcept nogil, void *arg)
    int pthread_join(pthread_t thread, void **retval)
    int pthread_attr_init(pthread_attr_t *attr)
    int pthread_attr_setstacksize(pthread_attr_t *attr, size_t size)
    int pthread_attr_destroy(pthread_attr_t *attr)

cdef extern from "<unistd.h>" nogil:
    int usleep(unsigned int usec)

cdef enum:
    MAX_THREADS = 256
    CURRMOVE_AFTER_MS = 3000    # currmove lines and bound lines after this long

LIMIT_KEYS = ("depth", "nodes", "soft_nodes", "mate", "movetime", "soft_ms", "hard_ms", "infinite",
              "searchmoves", "multipv", "threads")

# ---------------------------------------------------------------- C side

cdef void *helper_main(void *arg) noexcept nogil:
    iterative_deepening(<SearchThread *>arg)
    return NULL

cdef void run_search(SearchShared *sh) noexcept nogil:
    """Start the helpers, search with the main thread, wait while an infinite
    (or ponder) search has nothing left to do, then stop and join."""
    cdef pthread_t handles[MAX_THREADS]
    cdef bint started[MAX_THREADS]
    cdef pthread_attr_t attr
    cdef int i
    pthread_attr_init(&attr)
    pthread_attr_setstacksize(&attr, 16 * 1024 * 1024)
    for i in range(1, sh.nthreads):
        started[i] = pthread_create(&handles[i], &attr, helper_main, sh.threads[i]) == 0
    pthread_attr_destroy(&attr)
    iterative_deepening(<SearchThread *>sh.threads[0])
    while not atomic_get_int(&sh.stop) and atomic_get_int(&sh.infinite):
        usleep(1000)
    atomic_set_int(&sh.stop, 1)
    for i in range(1, sh.nthreads):
        if started[i]:
            pthread_join(handles[i], NULL)

cdef void prepare_thread(SearchThread *t, Pos *root, RootMove *moves, int count) noexcept nogil:
    cdef int i
    cdef SStack *s
    memcpy(&t.pos, root, <size_t>(<char *>&root.st[root.sp + 1] - <char *>root))
    t.pos.nnue = NULL                   # never the root Position's accumulators
    if t.sh.use_nnue:
        t.pos.nnue = &t.nnue
        nnue_invalidate(&t.nnue, t.pos.sp)
        t.nnue.refreshes = 0
        t.nnue.updates = 0
        # The root's accumulator now, once: a node whose ancestors all took
        # their static evaluation from the hash table then still updates
        # from it instead of refreshing (with the hash kept across a game's
        # moves, the root and the first plies are such nodes).
        nnue_accumulator(&t.pos, NNUE_NET)
    for i in range(MAX_PLY + SS_OFFSET + 6):
        s = &t.stack[i]
        s.ply = i - SS_OFFSET if i >= SS_OFFSET else 0
        s.static_eval = VALUE_NONE
        s.raw_eval = VALUE_NONE
        s.move = MOVE_NONE
        s.piece = 0
        s.excluded = MOVE_NONE
        s.killers[0] = s.killers[1] = MOVE_NONE
        s.cont_hist = &t.hist.cont[0][0][0]
        s.move_count = 0
        s.tt_pv = 0
        s.double_ext = 0
    memcpy(t.root, moves, count * sizeof(RootMove))
    t.root_count = count
    t.pv_idx = 0
    t.root_depth = 0
    t.completed_depth = 0
    t.seldepth = 0
    t.nmp_min_ply = 0
    t.nmp_color = 0
    t.nodes = 0
    t.tbhits = 0
    t.tick = 1024
    t.best_move_changes = 0

cdef void report_iteration(SearchThread *t, int depth) noexcept nogil:
    with gil:
        (<Search>t.sh.owner).emit_lines(t, depth, BOUND_NONE, False)

cdef void report_bound(SearchThread *t, int depth, int score, int bound) noexcept nogil:
    if now_ms() - t.sh.start_ms < CURRMOVE_AFTER_MS:
        return
    with gil:
        (<Search>t.sh.owner).emit_lines(t, depth, bound, False)

cdef void report_currmove(SearchThread *t, Move m, int number, int depth) noexcept nogil:
    with gil:
        (<Search>t.sh.owner).emit_currmove(t, m, number, depth)

cdef int probe_tablebase(SearchThread *t) noexcept nogil:
    with gil:
        return (<Search>t.sh.owner).probe(t)

cdef object score_tuple(int v):
    """("cp", n) or ("mate", moves); tablebase wins as cp 20000 - plies to
    the conversion (Stockfish's convention)."""
    if v >= VALUE_MATE_IN_MAX:
        return ("mate", (VALUE_MATE - v + 1) // 2)
    if v <= -VALUE_MATE_IN_MAX:
        return ("mate", -((VALUE_MATE + v) // 2))
    if v >= VALUE_TB_WIN_IN_MAX:
        return ("cp", 20000 - (VALUE_TB_WIN - v))
    if v <= -VALUE_TB_WIN_IN_MAX:
        return ("cp", -20000 + (VALUE_TB_WIN + v))
    return ("cp", v)

cdef list pv_to_uci(Pos *pos, Move *pv, int n):
    """UCI text of a PV played from pos (restored afterwards); stops at the
    first move that is not legal (cannot happen for a searched PV)."""
    cdef int i, played = 0
    out = []
    for i in range(n):
        if not move_is_legal_fast(pos, pv[i]):
            break
        out.append(move_to_uci(pos, pv[i], pos.chess960))
        do_move(pos, pv[i])
        played += 1
    for i in range(played - 1, -1, -1):
        undo_move(pos, pv[i])
    return out

# ---------------------------------------------------------------- the class

cdef class Search:
    """The search: transposition table, threads and limits (docs/core-api.md)."""
    cdef SearchShared sh
    cdef SearchThread **thread_data
    cdef int nthreads
    cdef int _hash_mb
    cdef object on_info
    cdef object tb_probe
    cdef object callback_error
    cdef bint _searching
    cdef dict options

    def __cinit__(self):
        memset(&self.sh, 0, sizeof(SearchShared))
        self.thread_data = NULL
        self.nthreads = 0
        self._searching = False
        self.options = {"skill_elo": None, "use_nnue": False}
        self.sh.owner = <void *>self
        self.sh.multipv = 1
        self.sh.currmove_after_ms = CURRMOVE_AFTER_MS
        self.sh.last_score_ply = -1
        if tt_resize(&self.sh.tt, 16) != 0:
            raise MemoryError("cannot allocate the 16 MB hash table")
        self._hash_mb = 16
        self.set_threads(1)

    def __dealloc__(self):
        cdef int i
        if self.thread_data != NULL:
            for i in range(self.nthreads):
                nnue_stack_free(&self.thread_data[i].nnue)
                free(self.thread_data[i])
            free(self.thread_data)
        tt_free(&self.sh.tt)

    # -- options ---------------------------------------------------------

    def _check_idle(self, what):
        if self._searching:
            raise RuntimeError(f"{what} while a search is running")

    def set_hash(self, mb):
        """Resize the table to mb megabytes (cleared). ValueError below 1;
        MemoryError when the memory is not there, keeping the old table."""
        self._check_idle("set_hash")
        if isinstance(mb, bool) or not isinstance(mb, int):
            raise ValueError(f"hash size must be an integer number of MB, not {mb!r}")
        if mb < 1:
            raise ValueError(f"hash size must be at least 1 MB, not {mb}")
        if mb > (1 << 40) or tt_resize(&self.sh.tt, <u64>mb) != 0:
            raise MemoryError(f"cannot allocate a {mb} MB hash table; the {self._hash_mb} MB table is kept")
        self._hash_mb = mb

    @property
    def hash_mb(self):
        return self._hash_mb

    def clear_hash(self):
        """Empty the table and every thread's histories (ucinewgame)."""
        cdef int i
        self._check_idle("clear_hash")
        tt_clear(&self.sh.tt)
        self.sh.last_score_ply = -1             # a new game: no previous score to fall from
        for i in range(self.nthreads):
            memset(&self.thread_data[i].hist, 0, sizeof(Histories))
            memset(&self.thread_data[i].corr, 0, sizeof(CorrectionHistory))

    def set_threads(self, n):
        """Number of search threads, 1..256 (Lazy SMP)."""
        cdef SearchThread **fresh
        cdef int i, count
        self._check_idle("set_threads")
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_THREADS:
            raise ValueError(f"threads must be an integer from 1 to {MAX_THREADS}, not {n!r}")
        count = n
        if count == self.nthreads:
            return
        fresh = <SearchThread **>calloc(count, sizeof(SearchThread *))
        if fresh == NULL:
            raise MemoryError("cannot allocate the thread table")
        for i in range(count):
            if i < self.nthreads:
                fresh[i] = self.thread_data[i]          # keep existing histories
            else:
                fresh[i] = <SearchThread *>calloc(1, sizeof(SearchThread))
                if fresh[i] == NULL:
                    for i in range(self.nthreads, count):
                        free(fresh[i])
                    free(fresh)
                    raise MemoryError(f"cannot allocate {count} search threads")
        for i in range(count, self.nthreads):
            nnue_stack_free(&self.thread_data[i].nnue)
            free(self.thread_data[i])
        free(self.thread_data)
        self.thread_data = fresh
        self.nthreads = count
        for i in range(count):
            self.thread_data[i].id = i
            self.thread_data[i].sh = &self.sh
        self.sh.threads = <void **>self.thread_data
        self.sh.nthreads = count

    @property
    def threads(self):
        return self.nthreads

    def hashfull(self):
        """Per mille of the table used by the current (or last) search."""
        return tt_hashfull(&self.sh.tt)

    @property
    def nodes(self):
        """Nodes of the current or last search, all threads."""
        return total_nodes(&self.sh)

    @property
    def thread_nodes(self):
        """Nodes of each thread in the current/last search (main thread first)."""
        return [self.thread_data[i].nodes for i in range(self.nthreads)]

    @property
    def nnue_stats(self):
        """The last search's accumulator work, summed over its threads and
        counted a perspective at a time: {"refreshes": perspectives refreshed,
        "updates": perspectives updated by a move's delta}."""
        cdef int i
        cdef long long refreshes = 0, updates = 0
        for i in range(self.nthreads):
            refreshes += self.thread_data[i].nnue.refreshes
            updates += self.thread_data[i].nnue.updates
        return {"refreshes": refreshes, "updates": updates}

    @property
    def searching(self):
        return bool(self._searching)

    def set_option(self, name, value):
        """Core options forwarded by the UCI layer. "skill_elo" is recorded
        (int or None) for the UCI layer's strength limiting."""
        if name == "skill_elo":
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ValueError(f"skill_elo must be an integer or None, not {value!r}")
            self.options["skill_elo"] = value
        elif name == "use_nnue":
            # Evaluate with the loaded network (load_network) instead of the
            # classical evaluation; go() refuses it while none is loaded.
            if not isinstance(value, bool):
                raise ValueError(f"use_nnue must be True or False, not {value!r}")
            self._check_idle("set_option('use_nnue')")
            if value and NNUE_NET == NULL:
                raise ValueError("no network is loaded (load_network first)")
            self.options["use_nnue"] = value
            self.sh.use_nnue = 1 if value else 0
        else:
            raise ValueError(f"unknown core option {name!r}")

    def get_option(self, name):
        if name not in self.options:
            raise ValueError(f"unknown core option {name!r}")
        return self.options[name]

    def set_tablebase(self, probe, probe_depth=1, probe_limit=7):
        """Probe tablebases inside the search: probe(fen) -> WDL (-2..2, side
        to move) or None, called with the GIL at nodes right after a capture or
        pawn move, without castling rights, with fewer than probe_limit pieces
        at any depth, or exactly probe_limit pieces at depth >= probe_depth.
        probe=None turns probing off."""
        self._check_idle("set_tablebase")
        if probe is None:
            self.tb_probe = None
            self.sh.tb_enabled = 0
            return
        if not callable(probe):
            raise ValueError("probe must be callable or None")
        if isinstance(probe_depth, bool) or not isinstance(probe_depth, int) or probe_depth < 0:
            raise ValueError(f"probe_depth must be an integer >= 0, not {probe_depth!r}")
        if isinstance(probe_limit, bool) or not isinstance(probe_limit, int) or not 0 <= probe_limit <= 32:
            raise ValueError(f"probe_limit must be an integer from 0 to 32, not {probe_limit!r}")
        self.tb_probe = probe
        self.sh.tb_probe_depth = probe_depth
        self.sh.tb_probe_limit = probe_limit
        self.sh.tb_enabled = 1 if probe_limit > 0 else 0

    # -- evaluation --------------------------------------------------------

    def evaluate(self, Position position not None):
        """Static evaluation in centipawns, side to move's view: through the
        main thread's pawn table when no search runs (the table is that
        thread's alone while it searches)."""
        if self._searching:
            return evaluate(position.pos, NULL)
        return evaluate(position.pos, self.thread_data[0].pawns)

    def eval_terms(self, Position position not None):
        """The evaluation's terms (for the `eval` command): the evaluation's
        own eval_terms(position) when it provides one, else {"total": cp}."""
        # The evaluation's module-level eval_terms (core/eval/api.pxi), looked up
        # at run time so that this file compiles whatever the evaluation offers.
        breakdown = globals().get("eval_terms")
        terms = dict(breakdown(position)) if callable(breakdown) else {}
        terms.setdefault("total", evaluate(position.pos, NULL))
        return terms

    # -- searching ---------------------------------------------------------

    def stop(self):
        """End the running search (any thread); go() returns within a few ms."""
        atomic_set_int(&self.sh.stop, 1)

    def set_limits(self, soft_ms, hard_ms):
        """New time limits for the running search, counted from now; also
        ends an infinite/ponder search's waiting (ponderhit)."""
        for name, value in (("soft_ms", soft_ms), ("hard_ms", hard_ms)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
                raise ValueError(f"{name} must be an integer >= 0 or None, not {value!r}")
        atomic_set_i64(&self.sh.time_base, now_ms())
        atomic_set_i64(&self.sh.soft_ms, -1 if soft_ms is None else soft_ms)
        atomic_set_i64(&self.sh.hard_ms, -1 if hard_ms is None else hard_ms)
        atomic_set_int(&self.sh.infinite, 0)

    def go(self, Position position not None, limits=None, on_info=None):
        """Search position (not changed) under limits; returns (best, ponder)
        as UCI strings. See docs/core-api.md for the limits and info dicts."""
        global NNUE_BUSY
        self._check_idle("go")
        if on_info is not None and not callable(on_info):
            raise ValueError("on_info must be callable or None")
        lim = self._parse_limits(limits)
        self._fit_nnue()
        self._searching = True      # from here on: no second go(), no resize
        NNUE_BUSY += self.sh.use_nnue     # and no network swap under the search
        try:
            return self._go(position, lim, on_info)
        finally:
            NNUE_BUSY -= self.sh.use_nnue
            self._searching = False
            self.on_info = None

    cdef _fit_nnue(self):
        """Size every thread's accumulators for the loaded network."""
        cdef int i
        if not self.sh.use_nnue:
            return
        if NNUE_NET == NULL:
            raise ValueError("use_nnue is on but no network is loaded")
        for i in range(self.nthreads):
            if nnue_stack_fit(&self.thread_data[i].nnue, NNUE_NET, 0) != 0:
                raise MemoryError("cannot allocate the NNUE accumulators")

    cdef object _go(self, Position position, dict lim, object on_info):
        cdef MoveList ml
        cdef RootMove *moves
        cdef Pos *pos = position.pos
        cdef int i, count
        cdef Move m, tt_first = MOVE_NONE
        cdef TTHit hit
        cdef RootMove tmp
        cdef SearchShared *sh = &self.sh

        # Root moves: the legal moves, or the legal ones among searchmoves.
        ml.count = 0
        gen_legal(pos, &ml, GEN_ALL)
        wanted = None
        if lim["searchmoves"]:
            wanted = set()
            for text in lim["searchmoves"]:
                if isinstance(text, str):
                    m = parse_uci_move(pos, text)
                    if m != MOVE_NONE:
                        wanted.add(m)
            if not wanted:
                wanted = None         # nothing legal named: search every move
        if tt_probe(&sh.tt, pos.st[pos.sp].key, &hit):
            tt_first = hit.move
        moves = <RootMove *>malloc(MAX_MOVES * sizeof(RootMove))
        if moves == NULL:
            raise MemoryError()
        try:
            count = 0
            for i in range(ml.count):
                if wanted is not None and ml.moves[i] not in wanted:
                    continue
                moves[count].move = ml.moves[i]
                moves[count].score = -VALUE_INF
                moves[count].prev_score = -VALUE_INF
                moves[count].seldepth = 0
                moves[count].nodes = 0
                moves[count].pv_len = 1
                moves[count].pv[0] = ml.moves[i]
                if ml.moves[i] == tt_first and count > 0:
                    # the previous search's best move first
                    memcpy(&tmp, &moves[0], sizeof(RootMove))
                    memcpy(&moves[0], &moves[count], sizeof(RootMove))
                    memcpy(&moves[count], &tmp, sizeof(RootMove))
                count += 1
            self.on_info = on_info
            self.callback_error = None
            if count == 0:
                self._emit_no_move(pos)
                if self.callback_error is not None:
                    error, self.callback_error = self.callback_error, None
                    raise error
                return (None, None)

            sh.node_limit = lim["nodes"]
            sh.soft_node_limit = lim["soft_nodes"]
            sh.depth_limit = lim["depth"]
            sh.mate_limit = lim["mate"]
            sh.multipv = lim["multipv"]
            sh.start_ms = now_ms()
            atomic_set_i64(&sh.time_base, sh.start_ms)
            atomic_set_i64(&sh.soft_ms, lim["soft_ms"])
            atomic_set_i64(&sh.hard_ms, lim["hard_ms"])
            atomic_set_int(&sh.infinite, 1 if lim["infinite"] else 0)
            atomic_set_int(&sh.stop, 0)
            tt_new_search(&sh.tt)
            for i in range(self.nthreads):
                prepare_thread(self.thread_data[i], pos, moves, count)
                self.thread_data[i].multipv = sh.multipv if i == 0 else 1
        finally:
            free(moves)

        # "threads": at most that many of the threads search this time (a
        # search of a few ms gains nothing from helpers, and on a loaded
        # machine waiting for them to stop costs time); the others stay idle.
        sh.nthreads = min(self.nthreads, lim["threads"])
        with nogil:
            run_search(sh)
        sh.nthreads = self.nthreads
        main = self.thread_data[0]
        self._emit_final(main)
        best_move = main.root[0].move
        best = move_to_uci(pos, best_move, pos.chess960)
        ponder = self._ponder_move(pos, main)
        if self.callback_error is not None:
            error, self.callback_error = self.callback_error, None
            raise error
        return (best, ponder)

    def _parse_limits(self, limits):
        if limits is None:
            limits = {}
        if not isinstance(limits, dict):
            raise ValueError("limits must be a dict")
        unknown = [k for k in limits if k not in LIMIT_KEYS]
        if unknown:
            raise ValueError(f"unknown limit(s) {', '.join(map(str, unknown))}; "
                             f"known: {', '.join(LIMIT_KEYS)}")
        out = {}
        for key, low in (("depth", 1), ("nodes", 1), ("soft_nodes", 1), ("mate", 1), ("movetime", 0),
                         ("soft_ms", 0), ("hard_ms", 0), ("multipv", 1), ("threads", 1)):
            value = limits.get(key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < low):
                raise ValueError(f"limit {key} must be an integer >= {low}, not {value!r}")
            out[key] = value
        searchmoves = limits.get("searchmoves")
        if searchmoves is not None and (isinstance(searchmoves, str)
                                        or not all(isinstance(x, str) for x in searchmoves)):
            raise ValueError("searchmoves must be a list of UCI move strings")
        has_limit = any(out[k] is not None for k in ("depth", "nodes", "soft_nodes", "mate", "movetime",
                                                     "soft_ms", "hard_ms"))
        hard = out["hard_ms"]
        if out["movetime"] is not None:
            hard = out["movetime"] if hard is None else min(hard, out["movetime"])
        return {
            "depth": min(out["depth"] or 0, MAX_SEARCH_DEPTH),
            "nodes": out["nodes"] or 0,
            "soft_nodes": out["soft_nodes"] or 0,
            "mate": min(out["mate"] or 0, 100),
            "multipv": min(out["multipv"] or 1, MAX_MOVES),
            "soft_ms": -1 if out["soft_ms"] is None else out["soft_ms"],
            "hard_ms": -1 if hard is None else hard,
            "infinite": bool(limits.get("infinite")) or not has_limit,
            "searchmoves": list(searchmoves) if searchmoves else [],
            "threads": out["threads"] or MAX_THREADS,
        }

    # -- reports (called with the GIL from the main search thread) ---------

    cdef dict line_info(self, SearchThread *t, int index, int depth, int bound):
        cdef RootMove *rm = &t.root[index]
        cdef bint updated = rm.score != -VALUE_INF
        cdef int d = depth if updated else depth - 1
        cdef int score = rm.score if updated else rm.prev_score
        cdef int64_t elapsed = now_ms() - self.sh.start_ms
        cdef u64 nodes = total_nodes(&self.sh)
        if d < 1 or score == -VALUE_INF:
            return None
        return {
            "depth": d,
            "seldepth": max(rm.seldepth, d),
            "multipv": index + 1,
            "score": score_tuple(score),
            "bound": None if bound == BOUND_NONE else ("lower" if bound == BOUND_LOWER else "upper"),
            "nodes": nodes,
            "nps": nodes * 1000 // max(elapsed, 1),
            "time": elapsed,
            "hashfull": tt_hashfull(&self.sh.tt),
            "tbhits": total_tbhits(&self.sh),
            "pv": pv_to_uci(&t.pos, rm.pv, rm.pv_len),
        }

    cdef void call_on_info(self, dict info):
        if info is None or self.on_info is None or self.callback_error is not None:
            return
        try:
            self.on_info(info)
        except BaseException as exc:
            self.keep_error(exc)

    cdef void keep_error(self, exc):
        """An exception in a report (the callback, or a KeyboardInterrupt that
        lands while a line is built): kept for go() to raise, and the search
        stops now. Nothing may escape these functions: they are called from
        nogil code, where Python would only print and ignore it."""
        if self.callback_error is None:
            self.callback_error = exc
        atomic_set_int(&self.sh.stop, 1)

    cdef void emit_lines(self, SearchThread *t, int depth, int bound, bint final):
        cdef int i, n = t.multipv if t.multipv < t.root_count else t.root_count
        try:
            if bound != BOUND_NONE:
                self.call_on_info(self.line_info(t, 0, depth, bound))
                return
            for i in range(n):
                self.call_on_info(self.line_info(t, i, depth, BOUND_NONE))
        except BaseException as exc:
            self.keep_error(exc)

    cdef void emit_currmove(self, SearchThread *t, Move m, int number, int depth):
        try:
            self.call_on_info({"currmove": move_to_uci(&t.pos, m, t.pos.chess960),
                               "currmovenumber": number, "depth": depth})
        except BaseException as exc:
            self.keep_error(exc)

    cdef void _emit_final(self, SearchThread *t):
        depth = t.root_depth if t.root_depth > 0 else 1
        self.emit_lines(t, depth, BOUND_NONE, True)

    cdef void _emit_no_move(self, Pos *pos):
        self.call_on_info({
            "depth": 0, "seldepth": 0, "multipv": 1,
            "score": ("mate", 0) if pos.st[pos.sp].checkers else ("cp", 0),
            "bound": None, "nodes": 0, "nps": 0, "time": 0,
            "hashfull": tt_hashfull(&self.sh.tt), "tbhits": 0, "pv": [],
        })

    cdef object _ponder_move(self, Pos *pos, SearchThread *t):
        """Second PV move, else the hash move of the position after the best."""
        cdef RootMove *rm = &t.root[0]
        cdef TTHit hit
        cdef Move reply = MOVE_NONE
        result = None
        if not move_is_legal_fast(pos, rm.move):
            return None
        do_move(pos, rm.move)
        try:
            if rm.pv_len >= 2 and move_is_legal_fast(pos, rm.pv[1]):
                reply = rm.pv[1]
            elif tt_probe(&self.sh.tt, pos.st[pos.sp].key, &hit) and move_is_legal_fast(pos, hit.move):
                reply = hit.move
            if reply != MOVE_NONE:
                result = move_to_uci(pos, reply, pos.chess960)
        finally:
            undo_move(pos, rm.move)
        return result

    cdef int probe(self, SearchThread *t):
        """Tablebase probe for the search (GIL held)."""
        if self.tb_probe is None:
            return TB_NO_RESULT
        try:
            wdl = self.tb_probe(get_fen(&t.pos, False))
        except Exception:
            return TB_NO_RESULT
        if wdl is None or isinstance(wdl, bool) or not isinstance(wdl, int) or not -2 <= wdl <= 2:
            return TB_NO_RESULT
        return wdl

# ---------------------------------------------------------------- test hooks

def _legality_mismatches(Position position not None):
    """For tests: moves on which the fast legality test (hash moves, killers)
    disagrees with full move generation, over all 65536 move codes; and
    legal moves on which gives_check disagrees with playing the move."""
    cdef Pos *pos = position.pos
    cdef int code
    cdef Move m
    cdef bint fast, full, chk
    cdef str text
    bad = []
    for code in range(65536):
        m = <Move>code
        fast = move_is_legal_fast(pos, m)
        full = move_is_legal(pos, m)
        if fast != full:
            bad.append(("legal", code, fast, full))
        elif full:
            chk = gives_check(pos, m)
            text = move_to_uci(pos, m, True)
            do_move(pos, m)
            if chk != (pos.st[pos.sp].checkers != 0):
                bad.append(("check", text, chk))
            undo_move(pos, m)
    return bad

def _see(Position position not None, str uci, int threshold):
    """For tests: see_ge of a legal move."""
    cdef Move m = parse_uci_move(position.pos, uci)
    if m == MOVE_NONE:
        raise ValueError(f"illegal move {uci}")
    return bool(see_ge(position.pos, m, threshold))

def _lmr_reduction(int depth, int move_count):
    """For tests: Step 16's table entry, the plies a late move at this depth
    is reduced by before the move's own adjustments."""
    return LMR_TABLE[min(max(depth, 0), 63)][min(max(move_count, 0), 63)]

def _tt_roundtrip(int score, int ply, int rule50=0):
    """For tests: value_from_tt(value_to_tt(score, ply), ply, rule50)."""
    return value_from_tt(value_to_tt(score, ply), ply, rule50)

# Tunables (search.pxi's block) by name, for tuning runs and experiments.
TUNABLE_NAMES = ("ASP_DELTA", "ASP_MIN_DEPTH", "RAZOR_BASE", "RAZOR_MUL", "RFP_DEPTH", "RFP_MARGIN",
                 "NMP_MIN_DEPTH", "NMP_BASE_R", "NMP_DEPTH_DIV", "NMP_EVAL_DIV", "NMP_VERIFY_DEPTH",
                 "PROBCUT_DEPTH", "PROBCUT_MARGIN", "IIR_DEPTH", "LMP_BASE", "FUT_DEPTH", "FUT_BASE",
                 "FUT_MUL", "HIST_PRUNE_DEPTH", "HIST_PRUNE_MUL", "SEE_QUIET_MUL", "SEE_NOISY_MUL",
                 "SE_DEPTH", "SE_TT_DEPTH", "DE_MARGIN", "DE_LIMIT", "LMR_HIST_DIV", "QS_FUT_MARGIN",
                 "QS_SEE_MARGIN", "HELPER_SKIP", "CHECK_EXT", "LMR_BASE_PCT", "LMR_DIV_PCT",
                 # the search bundle of issue 65 (correction.pxi, movepick.pxi, cuckoo.pxi, search.pxi)
                 "CORR_PAWN_W", "CORR_NONPAWN_W", "CORR_CONT_W", "CORR_BONUS_DIV", "PAWN_HIST_PCT",
                 "CONT_FAR_PCT", "CAP_SEE_HIST_DIV", "CAP_FUT_DEPTH", "CAP_FUT_BASE", "CAP_FUT_MUL",
                 "CAP_FUT_HIST_DIV", "CAP_LMR_DIV", "UPCOMING_REP", "RULE50_DAMP",
                 # time_scale.pxi
                 "TM_NODE_BASE", "TM_NODE_MUL", "TM_NODE_MIN", "TM_STABLE_BASE", "TM_STABLE_STEP",
                 "TM_STABLE_MIN", "TM_CHANGE_MUL", "TM_SCORE_BACK", "TM_SCORE_ITER", "TM_SCORE_MOVE",
                 "TM_SCORE_MIN", "TM_SCORE_MAX", "TM_SCALE_MIN", "TM_SCALE_MAX", "TM_INSIDE", "TM_MIN_DEPTH")
cdef int *TUNABLE_PTRS[63]
TUNABLE_PTRS[:] = [&ASP_DELTA, &ASP_MIN_DEPTH, &RAZOR_BASE, &RAZOR_MUL, &RFP_DEPTH, &RFP_MARGIN,
                   &NMP_MIN_DEPTH, &NMP_BASE_R, &NMP_DEPTH_DIV, &NMP_EVAL_DIV, &NMP_VERIFY_DEPTH,
                   &PROBCUT_DEPTH, &PROBCUT_MARGIN, &IIR_DEPTH, &LMP_BASE, &FUT_DEPTH, &FUT_BASE,
                   &FUT_MUL, &HIST_PRUNE_DEPTH, &HIST_PRUNE_MUL, &SEE_QUIET_MUL, &SEE_NOISY_MUL,
                   &SE_DEPTH, &SE_TT_DEPTH, &DE_MARGIN, &DE_LIMIT, &LMR_HIST_DIV, &QS_FUT_MARGIN,
                   &QS_SEE_MARGIN, &HELPER_SKIP, &CHECK_EXT, &LMR_BASE_PCT, &LMR_DIV_PCT,
                   &CORR_PAWN_W, &CORR_NONPAWN_W, &CORR_CONT_W, &CORR_BONUS_DIV, &PAWN_HIST_PCT,
                   &CONT_FAR_PCT, &CAP_SEE_HIST_DIV, &CAP_FUT_DEPTH, &CAP_FUT_BASE, &CAP_FUT_MUL,
                   &CAP_FUT_HIST_DIV, &CAP_LMR_DIV, &UPCOMING_REP, &RULE50_DAMP,
                   &TM_NODE_BASE, &TM_NODE_MUL, &TM_NODE_MIN, &TM_STABLE_BASE, &TM_STABLE_STEP,
                   &TM_STABLE_MIN, &TM_CHANGE_MUL, &TM_SCORE_BACK, &TM_SCORE_ITER, &TM_SCORE_MOVE,
                   &TM_SCORE_MIN, &TM_SCORE_MAX, &TM_SCALE_MIN, &TM_SCALE_MAX, &TM_INSIDE, &TM_MIN_DEPTH]

def get_tunables():
    """{name: value} of the search tunables."""
    return {name: TUNABLE_PTRS[i][0] for i, name in enumerate(TUNABLE_NAMES)}

def set_tunable(str name, int value):
    """Change one search tunable (process-wide; for tuning and experiments)."""
    if name not in TUNABLE_NAMES:
        raise ValueError(f"unknown tunable {name!r}")
    TUNABLE_PTRS[TUNABLE_NAMES.index(name)][0] = value
    if name in ("LMR_BASE_PCT", "LMR_DIV_PCT"):
        init_search_tables()        # the reduction table is built from these two

def _time_scale_after(iterations, prev_search_score=None):
    """For tests: the soft limit's scale (percent) after each of these
    completed iterations, as the main thread computes it (time_scale.pxi).
    iterations: (depth, best move as an int, score, best move's nodes,
    all nodes, best-move changes in the iteration) tuples."""
    cdef TimeScale ts
    time_scale_reset(&ts, VALUE_NONE if prev_search_score is None else prev_search_score)
    return [time_scale_update(&ts, depth, <Move>best, score, <u64>best_nodes, <u64>all_nodes, changes)
            for depth, best, score, best_nodes, all_nodes, changes in iterations]

cdef void _stack_with_moves(SStack *ss, prev) noexcept:
    """(ss - 2) and (ss - 1) made the moves of `prev`: ((piece, to) two plies
    back, (piece, to) one ply back), piece codes as python-chess's piece
    type + 8 for Black; None: no moves (the root)."""
    cdef int i
    for i in range(1, 3):
        (ss - i).piece = 0
        (ss - i).move = MOVE_NONE
    if prev:
        (ss - 2).piece, to2 = prev[0]
        (ss - 2).move = make_move(0, to2, KIND_NORMAL)
        (ss - 1).piece, to1 = prev[1]
        (ss - 1).move = make_move(0, to1, KIND_NORMAL)

def _correction_after(updates, fen=None, read_fen=None, prev=None, read_prev=None):
    """For tests: on a scratch table, make these (raw eval, search result,
    depth) updates as the search does at a node of `fen` (default: the start
    position) reached by the moves `prev` (see _stack_with_moves), each
    against the evaluation corrected so far; then return the correction
    (centipawns) that the static evaluation of `read_fen` (default: `fen`)
    reached by `read_prev` (default: `prev`) gets."""
    cdef CorrectionHistory *c = <CorrectionHistory *>calloc(1, sizeof(CorrectionHistory))
    cdef SStack stack[3]
    cdef Position position = Position(fen) if fen else Position()
    cdef Position reader = Position(read_fen) if read_fen else position
    if c == NULL:
        raise MemoryError()
    try:
        _stack_with_moves(&stack[2], prev)
        for raw, result, depth in updates:
            update_correction(c, position.pos, &stack[2],
                              corrected_eval(c, position.pos, &stack[2], raw), result, depth)
        _stack_with_moves(&stack[2], read_prev if read_prev is not None else prev)
        return corrected_eval(c, reader.pos, &stack[2], 0)
    finally:
        free(c)

def _search_static_eval(Search search not None, Position position not None):
    """For tests: (raw, as the search reads it) static evaluation of
    `position` (as a root: no moves before it) with the main thread's
    correction histories as the last search left them, and the halfmove
    damping. Only while the search is idle."""
    cdef SearchThread *t = search.thread_data[0]
    cdef SStack stack[3]
    cdef int raw
    search._check_idle("_search_static_eval")
    if search.sh.use_nnue:
        raise ValueError("_search_static_eval reads the classical evaluation: use_nnue must be off")
    _stack_with_moves(&stack[2], None)
    raw = clamp_eval(eval_for_search(position.pos, t.pawns))
    return raw, clamp_eval(rule50_damped(corrected_eval(&t.corr, position.pos, &stack[2], raw),
                                         position.pos.st[position.pos.sp].halfmove))

def _upcoming_repetition(Position position not None, int ply):
    """For tests: whether the side to move of `position` (with its history)
    has a move back to a position fewer than `ply` plies back (cuckoo.pxi)."""
    return bool(upcoming_repetition(position.pos, ply))

def _nonpawn_keys(Position position not None, bint scratch=False):
    """For tests: (White's, Black's) non-pawn keys of the position, as kept
    incrementally through its moves, or recomputed from the board."""
    cdef StateInfo saved
    cdef StateInfo *st = &position.pos.st[position.pos.sp]
    if not scratch:
        return st.nonpawn_key[WHITE], st.nonpawn_key[BLACK]
    saved = st[0]
    compute_keys(position.pos)
    result = st.nonpawn_key[WHITE], st.nonpawn_key[BLACK]
    st[0] = saved
    return result

def _capture_pruned(Position position not None, str uci, static_eval, int alpha, int depth,
                    int lmr_depth, int cap_hist):
    """For tests: whether Step 14 prunes this capture (search.pxi's
    capture_pruned); static_eval None: in check."""
    cdef Move m = parse_uci_move(position.pos, uci)
    if m == MOVE_NONE:
        raise ValueError(f"illegal move {uci}")
    return bool(capture_pruned(position.pos, m, VALUE_NONE if static_eval is None else static_eval,
                               alpha, depth, lmr_depth, cap_hist))

cdef void _place_moves_before(SStack *ss, Histories *h, moves_before) except *:
    """(ss - 1), (ss - 2), ... made the moves of moves_before, newest last."""
    cdef int i
    if len(moves_before) > SS_OFFSET:
        raise ValueError("at most 6 moves before the node")
    for i in range(1, SS_OFFSET + 1):
        (ss - i).cont_hist = &h.cont[0][0][0]
    for i, (piece, to) in enumerate(reversed(moves_before), start=1):
        (ss - i).cont_hist = &h.cont[piece][to][0]

cdef Move _quiet_move(Position position, str uci) except? 0xFFFF:
    cdef Move m = parse_uci_move(position.pos, uci)
    if m == MOVE_NONE or is_noisy(position.pos, m):
        raise ValueError(f"not a legal quiet move: {uci}")
    return m

def _quiet_history_after(rewards, str fen, str uci, prev=()):
    """For tests: on scratch histories, reward (bonus > 0) or punish quiet
    moves as a cutoff does, then return what the histories say of `uci` in
    `fen` (movepick.pxi's quiet_history, the score that orders quiets and
    drives their pruning and LMR). rewards: (fen, uci, bonus, prev) tuples;
    prev: the (piece, to) of the moves before the node, oldest first, at
    most 6 (pieces as python-chess's piece type + 8 for Black)."""
    cdef Histories *h = <Histories *>calloc(1, sizeof(Histories))
    cdef SStack stack[SS_OFFSET + 1]
    cdef SStack *ss = &stack[SS_OFFSET]
    cdef Position position
    cdef Move m
    if h == NULL:
        raise MemoryError()
    try:
        for reward_fen, reward_uci, bonus, reward_prev in rewards:
            position = Position(reward_fen)
            m = _quiet_move(position, reward_uci)
            _place_moves_before(ss, h, reward_prev)
            update_quiet_history(position.pos, h, ss, m, bonus)
        position = Position(fen)
        m = _quiet_move(position, uci)
        _place_moves_before(ss, h, prev)
        return quiet_history(position.pos, h, ss, m)
    finally:
        free(h)

def _cuckoo_count():
    """For tests: how many reversible-move keys the cuckoo table holds."""
    return CUCKOO_COUNT

def _tt_torn_entry_check():
    """For tests: (hit after a store, hit after the data word alone was
    overwritten by another writer's data) on a scratch 1 MB table; a sound
    table answers (True, False)."""
    cdef TTable tt
    cdef TTHit hit
    cdef TTBucket *b
    cdef u64 key = 0x9E3779B97F4A7C15ULL
    cdef int i
    cdef bint first, torn = False
    memset(&tt, 0, sizeof(TTable))
    if tt_resize(&tt, 1) != 0:
        raise MemoryError()
    try:
        tt_store(&tt, key, 9, 123, 45, make_move(12, 28, KIND_NORMAL), BOUND_EXACT, False)
        first = tt_probe(&tt, key, &hit) and hit.score == 123 and hit.depth == 9 and hit.eval == 45
        b = tt_bucket(&tt, key)
        for i in range(TT_ENTRIES):
            if b.e[i].data != 0 and (b.e[i].check ^ b.e[i].data) == key:
                b.e[i].data ^= <u64>0x00000000FFFF0000ULL     # another score, check not rewritten
        torn = tt_probe(&tt, key, &hit)
    finally:
        tt_free(&tt)
    return bool(first), bool(torn)

def _tt_forge(Search search not None, u64 key, int move, int depth, int score):
    """For tests: store an entry that passes the key check, with any 16-bit
    move (garbage included) and an exact score, as a hash collision or a
    torn-then-rewritten entry could leave it. Only while the search is idle."""
    search._check_idle("_tt_forge")
    if not 0 <= move <= 0xFFFF or not 0 <= depth <= 100 or not -30000 <= score <= 30000:
        raise ValueError("move must be 16 bits, depth 0..100, score -30000..30000")
    tt_store(&search.sh.tt, key, depth, score, 0, <Move>move, BOUND_EXACT, False)
