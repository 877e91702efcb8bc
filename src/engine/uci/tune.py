"""`vireo uci --tune`: the search's constants as UCI spin options.

A tuner (`vireo spsa`, OpenBench, chess-tuning-tools, a cutechess-cli
script) changes them with setoption like any other option. They are
declared only with --tune, as Stockfish's TUNE() and Ethereal's tuning
builds do, so a GUI's option list stays short for players.

The ranges keep every value the search can take sound (no division by
zero, no depth threshold below 1 where the step needs one) and wide enough
for a tuner to roam; a value outside them is refused like any other spin.
"""
from typing import Dict, List, Tuple

from .options import Option

# name -> (min, max). The names are the core's (search.pxi's constant block).
RANGES: Dict[str, Tuple[int, int]] = {
    "ASP_DELTA": (5, 100),
    "ASP_MIN_DEPTH": (1, 12),
    "RAZOR_BASE": (0, 800),
    "RAZOR_MUL": (0, 500),
    "RFP_DEPTH": (0, 16),
    "RFP_MARGIN": (10, 250),
    "NMP_MIN_DEPTH": (1, 10),
    "NMP_BASE_R": (1, 8),
    "NMP_DEPTH_DIV": (1, 16),
    "NMP_EVAL_DIV": (25, 1000),
    "NMP_VERIFY_DEPTH": (2, 64),
    "PROBCUT_DEPTH": (2, 16),
    "PROBCUT_MARGIN": (10, 500),
    "IIR_DEPTH": (1, 16),
    "LMP_BASE": (0, 16),
    "FUT_DEPTH": (0, 16),
    "FUT_BASE": (0, 400),
    "FUT_MUL": (10, 400),
    "HIST_PRUNE_DEPTH": (0, 10),
    "HIST_PRUNE_MUL": (0, 20000),
    "SEE_QUIET_MUL": (0, 200),
    "SEE_NOISY_MUL": (0, 400),
    "SE_DEPTH": (2, 20),
    "SE_TT_DEPTH": (1, 10),
    "DE_MARGIN": (0, 200),
    "DE_LIMIT": (0, 32),
    "LMR_HIST_DIV": (1000, 100000),
    "QS_FUT_MARGIN": (0, 800),
    "QS_SEE_MARGIN": (-400, 200),
    "HELPER_SKIP": (0, 1),
    "CHECK_EXT": (0, 2),
    # Step 16's reduction table, in hundredths: base + ln(depth) ln(move) / div
    "LMR_BASE_PCT": (0, 300),
    "LMR_DIV_PCT": (100, 600),
    # the search bundle of issue 65. correction.pxi: weight / 64 cp per full
    # entry (16384: 256 cp); movepick.pxi: percentages; 0 switches a piece off
    # wherever the range starts at 0 (every division by one is guarded)
    "CORR_PAWN_W": (0, 16384),
    "CORR_NONPAWN_W": (0, 16384),
    "CORR_CONT_W": (0, 16384),
    "CORR_BONUS_DIV": (1, 64),
    "PAWN_HIST_PCT": (0, 400),
    "CONT_FAR_PCT": (0, 200),
    "CAP_SEE_HIST_DIV": (0, 256),
    "CAP_FUT_DEPTH": (0, 16),
    "CAP_FUT_BASE": (0, 800),
    "CAP_FUT_MUL": (0, 500),
    "CAP_FUT_HIST_DIV": (0, 256),
    "CAP_LMR_DIV": (0, 100000),
    "UPCOMING_REP": (0, 1),
    "RULE50_DAMP": (0, 1000),
    # time_scale.pxi: percentages of the soft limit; TM_SCORE_BACK below its table size (16)
    "TM_NODE_BASE": (50, 400),
    "TM_NODE_MUL": (0, 300),
    "TM_NODE_MIN": (10, 200),
    "TM_STABLE_BASE": (50, 300),
    "TM_STABLE_STEP": (0, 50),
    "TM_STABLE_MIN": (10, 200),
    "TM_CHANGE_MUL": (0, 200),
    "TM_SCORE_BACK": (1, 15),
    "TM_SCORE_ITER": (0, 100),
    "TM_SCORE_MOVE": (0, 100),
    "TM_SCORE_MIN": (10, 100),
    "TM_SCORE_MAX": (100, 400),
    "TM_SCALE_MIN": (5, 100),
    "TM_SCALE_MAX": (100, 800),
    "TM_INSIDE": (100, 1000),
    "TM_MIN_DEPTH": (1, 20),
}


def tune_options(core) -> List[Option]:
    """One spin option per core tunable, its default the core's present value."""
    values = core.get_tunables()
    missing = set(values) - set(RANGES)
    if missing:   # a new constant in the core needs a range here first
        raise RuntimeError(f"no tuning range for {', '.join(sorted(missing))}")
    return [Option(name, "spin", values[name], *RANGES[name]) for name in values]
