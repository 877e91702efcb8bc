# cython: language_level=3
# The native core: one C compilation unit assembled from the parts in core/,
# so the C compiler can inline attack lookups into move generation and move
# generation into search (see ../shared/DESIGN.md, "Why one compilation unit").
# It knows nothing of the Python layers above it (docs/architecture.md).

include "core/magic_numbers.pxi" # the slider tables' magic numbers, stored
include "core/bitboard.pxi"      # bit tricks, attack tables, magic slider lookups
include "core/position.pxi"      # Zobrist keys, make/unmake, attacks, draws
include "core/cuckoo.pxi"        # upcoming-repetition detection (cuckoo table of reversible moves)
include "core/movegen.pxi"       # legal move generation
include "core/perft.pxi"         # perft with bulk counting
include "core/fen.pxi"           # FEN in/out, UCI move text
include "core/eval/evaluate.pxi" # tapered evaluation, incremental terms
include "core/nnue/network.pxi"     # the loaded network (file checks, aligned C memory)
include "core/nnue/kernels.pxi"     # row sums: SIMD (core/nnue/simd.h) or plain loops
include "core/nnue/king.pxi"        # king buckets, refreshes, the refresh table
include "core/nnue/accumulator.pxi" # accumulator stack kept in step with make/unmake
include "core/nnue/infer.pxi"       # the integer output layer; eval_for_search picks NNUE or classical
include "core/tt.pxi"            # transposition table
include "core/movepick.pxi"      # staged move ordering, SEE
include "core/correction.pxi"    # the static evaluation's learned error (pawn, non-pawn, continuation)
include "core/time_scale.pxi"    # the soft time limit scaled by how settled the search is
include "core/search.pxi"        # iterative deepening, PVS, quiescence, pruning
include "core/position_api.pxi"  # the Python-facing Position class
include "core/search_api.pxi"    # the Python-facing Search class
include "core/batch_eval.pxi"    # the static evaluation of many positions, without the GIL
include "core/nnue/speed.pxi"       # the NNUE kernels timed alone (benchmarks/nnue_speed.py)
include "core/build_info.pxi"       # how this core was compiled (engine/cpu.py)

init_bitboards()
init_zobrist()
init_cuckoo()             # after the Zobrist keys it is made of
init_eval()               # before any position is built: psq is incremental
init_nnue()
