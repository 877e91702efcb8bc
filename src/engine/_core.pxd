# C types of the native core. Every hot structure is a plain C struct; the
# only Python-visible types are the cdef classes of core/position_api.pxi and core/search_api.pxi.
#
# Numbering follows python-chess so that tests compare directly:
#   squares A1=0 ... H8=63 (sq = 8*rank + file)
#   piece types PAWN=1 ... KING=6
# Colours are WHITE=0, BLACK=1 (array indices), and a piece code is
# type + 8*colour (white pawn 1 ... white king 6, black pawn 9 ... black king 14;
# 0 is an empty square).
#
# Move layout, 16 bits:
#   bits  0-5   from square
#   bits  6-11  to square (castling: the castling rook's square, king-takes-rook)
#   bits 12-15  kind: 0 normal, 1..4 promotion to N, B, R, Q (piece = kind + 1),
#               5 en passant, 6 castling
# MOVE_NONE (0) and MOVE_NULL (from == to == 1, kind 0) are never legal moves.

from libc.stdint cimport uint64_t, uint32_t, uint16_t, int16_t, int32_t, uint8_t, int8_t

ctypedef uint64_t u64
ctypedef uint16_t Move

cdef enum:
    MAX_MOVES = 256         # legal positions (<= 16 pieces a side) have at most 218
    MAX_PLY = 128           # deepest search ply
    MAX_STATES = 4096 + 2 * MAX_PLY   # game history plus search depth

cdef struct StateInfo:
    u64 key              # Polyglot Zobrist key of the position
    u64 pawn_key         # Zobrist key of the pawns (and kings) alone
    u64 nonpawn_key[2]   # Zobrist key of each colour's pieces other than pawns (kings included)
    u64 checkers         # pieces giving check to the side to move
    int32_t halfmove     # plies since the last capture or pawn move
    int32_t plies_from_null  # plies since the last null move (bounds repetition scans)
    uint8_t castle       # castling rights: bit 0 white short, 1 white long, 2 black short, 3 black long
    uint8_t ep           # en-passant square, only when a pawn of the side to move attacks it; 64 = none
    uint8_t captured     # piece code captured by the move that led here (0 = none)
    Move move            # the move that led here (MOVE_NONE at the root of the game)

# NNUE accumulators (core/nnue/accumulator.pxi). A stack of them follows the
# search: slot i holds the accumulator of the state at st[base + i], each
# perspective valid when its bit of `computed` is set; do_move records in
# the next slot which features changed (delta), so a slot is brought up to
# date from its nearest computed parent only when an evaluation needs it.
cdef enum:
    NNUE_SLOTS = MAX_PLY + 16
    NNUE_MAX_KING_BUCKETS = 32

cdef struct NnueDelta:
    uint8_t n_add           # features added (0..2), removed (0..2) per perspective
    uint8_t n_sub
    uint8_t add_pc[2]       # piece codes and squares of the added pieces
    uint8_t add_sq[2]
    uint8_t sub_pc[2]       # ... and of the removed ones
    uint8_t sub_sq[2]
    uint8_t king_sq[2]      # each side's king square after the move (king buckets)
    uint8_t refresh         # bit p: perspective p's king changed bucket or mirror

# A refresh table entry (Koivisto's and Stockfish's "Finny tables"): the
# accumulator of one perspective for one king bucket and mirror, and the
# pieces it was computed for; a refresh then applies only the difference.
cdef struct NnueFinny:
    int16_t *acc            # H int16 (64-byte aligned)
    u64 pieces[2][7]        # by colour and piece type (PAWN..KING) when acc was made
    int valid

cdef struct NnueSlot:
    int16_t *acc            # 2 * H int16: white's perspective, then black's (64-byte aligned)
    int computed            # bit p: perspective p's half is up to date
    NnueDelta delta

cdef struct NnueStack:
    int base                # pos.sp of slot 0
    int hidden              # H that acc memory was sized for (0 = none yet)
    long long generation    # network generation the computed slots belong to
    int16_t *memory         # NNUE_SLOTS * 2 * H int16, 64-byte aligned
    long long refreshes     # perspectives refreshed since the counters were last zeroed
    long long updates       # perspectives updated by a delta since then (Search.nnue_stats())
    int mirrored            # the network has king buckets (version 3): record_move
    uint8_t king_bucket[64] #   flags refreshes by this map (own-view king square -> bucket)
    int finny_count         # entries per perspective (2 * K: bucket and mirror), 0 = no table
    int16_t *finny_memory   # 2 * finny_count * H int16
    NnueFinny finny[2][2 * NNUE_MAX_KING_BUCKETS]
    NnueSlot slots[NNUE_SLOTS]

cdef struct Pos:
    u64 by_type[7]       # by piece type; by_type[0] = all occupied squares
    u64 by_color[2]
    uint8_t board[64]    # piece code on each square, 0 = empty
    int side             # side to move
    int fullmove         # FEN fullmove number
    int chess960         # print castling as Chess960 (FEN letters, UCI king-takes-rook)
    int castle_rook[4]   # rook square of each castling right (indexed like the castle bits)
    u64 castle_path[4]   # squares that must be empty for that castling
    u64 king_path[4]     # squares the king passes or lands on (must not be attacked)
    uint8_t castle_mask[64]  # castle rights kept when a move touches this square
    int32_t psq[2]       # incremental material + piece-square score (mg, eg), white's view
    int32_t phase        # game phase from non-pawn material (24 = opening)
    NnueStack *nnue      # accumulators kept in step with make/unmake; NULL = not
                         # in use (classical evaluation: do_move pays one branch)
    int sp               # index of the current StateInfo
    StateInfo st[MAX_STATES]

cdef struct MoveList:
    int count
    Move moves[MAX_MOVES]
    int32_t scores[MAX_MOVES]
