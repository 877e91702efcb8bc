# Evaluation weights: one flat table of (middlegame, endgame) pairs.
#
# Every term of the evaluation is a count (a feature) times one weight of this
# table, so the evaluation is linear in the weights before tapering and
# scaling. That is what lets the Texel tuner (engine.tools.tuning) fit them all at
# once from a trace of feature counts (eval_trace in evaluate.pxi).
#
# The layout below is the one place that says where each group starts; a
# group's size is the distance to the next offset. weights.pxi (written
# by the tuner) holds the values by group name.

cdef enum:
    W_MATERIAL = 0                          # [5] pawn, knight, bishop, rook, queen
    W_PSQT = W_MATERIAL + 5                 # [6][64] by piece type, square from the owner's side (a1 = 0)
    W_MOB_KNIGHT = W_PSQT + 6 * 64          # [9]  safe squares a knight attacks
    W_MOB_BISHOP = W_MOB_KNIGHT + 9         # [14]
    W_MOB_ROOK = W_MOB_BISHOP + 14          # [15]
    W_MOB_QUEEN = W_MOB_ROOK + 15           # [28]
    W_PAWN_PASSED = W_MOB_QUEEN + 28        # [8] passed pawn by relative rank
    W_PAWN_CONNECTED = W_PAWN_PASSED + 8    # [8] supported or side by side, by relative rank
    W_PAWN_ISOLATED = W_PAWN_CONNECTED + 8  # no own pawn on the files beside it
    W_PAWN_DOUBLED = W_PAWN_ISOLATED + 1    # an own pawn ahead on the same file
    W_PAWN_BACKWARD = W_PAWN_DOUBLED + 1    # neighbours all ahead, stop square held by an enemy pawn
    W_SHELTER = W_PAWN_BACKWARD + 1         # [4][8] own pawn in front of the king: [file's distance to the edge][relative rank, 0 = none]
    W_STORM = W_SHELTER + 32                # [4][8] nearest enemy pawn on the king's files: same indexing
    W_PASSED_FREE = W_STORM + 32            # [8] passed pawn whose stop square is empty and not attacked
    W_PASSED_KING_US = W_PASSED_FREE + 8    # [8] per square of own king distance to the stop square (max 5), by rank
    W_PASSED_KING_THEM = W_PASSED_KING_US + 8   # [8] same for the enemy king
    W_BISHOP_PAIR = W_PASSED_KING_THEM + 8
    W_ROOK_OPEN = W_BISHOP_PAIR + 1         # no pawn on the rook's file
    W_ROOK_SEMI_OPEN = W_ROOK_OPEN + 1      # only enemy pawns on the file
    W_KNIGHT_OUTPOST = W_ROOK_SEMI_OPEN + 1 # pawn-defended square no enemy pawn can attack
    W_BISHOP_OUTPOST = W_KNIGHT_OUTPOST + 1
    W_BISHOP_PAWNS = W_BISHOP_OUTPOST + 1   # per own pawn on the bishop's square colour
    W_MINOR_BEHIND_PAWN = W_BISHOP_PAWNS + 1
    W_THREAT_BY_PAWN = W_MINOR_BEHIND_PAWN + 1  # per enemy piece (not pawn) a pawn attacks
    W_THREAT_BY_MINOR = W_THREAT_BY_PAWN + 1    # [5] by the attacked piece's type, pawn..queen
    W_THREAT_BY_ROOK = W_THREAT_BY_MINOR + 5    # [5]
    W_HANGING = W_THREAT_BY_ROOK + 5        # enemy piece we attack that nothing defends
    W_KING_ATTACKERS = W_HANGING + 1        # [8] pieces attacking the enemy king zone (when we have a queen)
    W_KING_ZONE_ATTACKS = W_KING_ATTACKERS + 8  # [4] per king-zone square a knight/bishop/rook/queen attacks
    W_SAFE_CHECK = W_KING_ZONE_ATTACKS + 4  # [4] per square a knight/bishop/rook/queen could check from safely
    W_TEMPO = W_SAFE_CHECK + 4              # side to move
    N_WEIGHTS = W_TEMPO + 1

# (group name, first index, term shown by `eval`), in layout order.
EVAL_GROUPS = [
    ("material", W_MATERIAL, "material"),
    ("psqt_pawn", W_PSQT + 0 * 64, "psqt"),
    ("psqt_knight", W_PSQT + 1 * 64, "psqt"),
    ("psqt_bishop", W_PSQT + 2 * 64, "psqt"),
    ("psqt_rook", W_PSQT + 3 * 64, "psqt"),
    ("psqt_queen", W_PSQT + 4 * 64, "psqt"),
    ("psqt_king", W_PSQT + 5 * 64, "psqt"),
    ("mobility_knight", W_MOB_KNIGHT, "mobility"),
    ("mobility_bishop", W_MOB_BISHOP, "mobility"),
    ("mobility_rook", W_MOB_ROOK, "mobility"),
    ("mobility_queen", W_MOB_QUEEN, "mobility"),
    ("pawn_passed", W_PAWN_PASSED, "pawns"),
    ("pawn_connected", W_PAWN_CONNECTED, "pawns"),
    ("pawn_isolated", W_PAWN_ISOLATED, "pawns"),
    ("pawn_doubled", W_PAWN_DOUBLED, "pawns"),
    ("pawn_backward", W_PAWN_BACKWARD, "pawns"),
    ("king_shelter", W_SHELTER, "king_safety"),
    ("king_storm", W_STORM, "king_safety"),
    ("passed_free", W_PASSED_FREE, "passed"),
    ("passed_king_us", W_PASSED_KING_US, "passed"),
    ("passed_king_them", W_PASSED_KING_THEM, "passed"),
    ("bishop_pair", W_BISHOP_PAIR, "pieces"),
    ("rook_open", W_ROOK_OPEN, "pieces"),
    ("rook_semi_open", W_ROOK_SEMI_OPEN, "pieces"),
    ("knight_outpost", W_KNIGHT_OUTPOST, "pieces"),
    ("bishop_outpost", W_BISHOP_OUTPOST, "pieces"),
    ("bishop_pawns", W_BISHOP_PAWNS, "pieces"),
    ("minor_behind_pawn", W_MINOR_BEHIND_PAWN, "pieces"),
    ("threat_by_pawn", W_THREAT_BY_PAWN, "threats"),
    ("threat_by_minor", W_THREAT_BY_MINOR, "threats"),
    ("threat_by_rook", W_THREAT_BY_ROOK, "threats"),
    ("hanging", W_HANGING, "threats"),
    ("king_attackers", W_KING_ATTACKERS, "king_safety"),
    ("king_zone_attacks", W_KING_ZONE_ATTACKS, "king_safety"),
    ("safe_check", W_SAFE_CHECK, "king_safety"),
    ("tempo", W_TEMPO, "tempo"),
]

cdef int32_t W_MG[N_WEIGHTS]
cdef int32_t W_EG[N_WEIGHTS]


def eval_layout():
    """[(group name, first index, size, term)] in layout order."""
    out = []
    for i, (name, start, term) in enumerate(EVAL_GROUPS):
        end = EVAL_GROUPS[i + 1][1] if i + 1 < len(EVAL_GROUPS) else N_WEIGHTS
        out.append((name, start, end - start, term))
    return out


def eval_weight_count():
    return N_WEIGHTS


cdef void load_weight_groups(dict groups) except *:
    """Fill W_MG/W_EG from {group name: [(mg, eg), ...]}; every group must be there."""
    layout = eval_layout()
    known = {name for name, _, _, _ in layout}
    unknown = set(groups) - known
    if unknown:
        raise ValueError(f"unknown evaluation weight groups: {sorted(unknown)}")
    for name, start, size, _ in layout:
        if name not in groups:
            raise ValueError(f"evaluation weight group {name!r} is missing")
        values = list(groups[name])
        if len(values) != size:
            raise ValueError(f"group {name!r} needs {size} (mg, eg) pairs, got {len(values)}")
        for i, pair in enumerate(values):
            mg, eg = pair
            W_MG[start + i] = int(mg)
            W_EG[start + i] = int(eg)
