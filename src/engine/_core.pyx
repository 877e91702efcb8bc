# cython: language_level=3
# The native core: one C compilation unit assembled from role-named parts, so
# the C compiler can inline attack lookups into move generation and move
# generation into search (see ../shared/DESIGN.md, "Why one compilation unit").

include "bitboard.pxi"    # bit tricks, attack tables, magic slider lookups
include "position.pxi"    # Zobrist keys, make/unmake, attacks, draws
include "movegen.pxi"     # legal move generation
include "perft.pxi"       # perft with bulk counting
include "fen.pxi"         # FEN in/out, UCI move text
include "evaluate.pxi"    # tapered evaluation, incremental terms
include "tt.pxi"          # transposition table
include "movepick.pxi"    # staged move ordering, SEE
include "search.pxi"      # iterative deepening, PVS, quiescence, pruning
include "api.pxi"         # the Python-facing Position class
include "search_api.pxi"  # the Python-facing Search class

init_bitboards()
init_zobrist()
init_eval()               # before any position is built: psq is incremental
