"""Measure what UCI_Elo settings are worth: matches against a reference engine.

The calibration in strength.py was measured against Stockfish's own
UCI_LimitStrength (Debian's Stockfish 15.1), one match per setting:

    python -m engine.tools.strength_calibrate --opponent /usr/games/stockfish --proto uci \
        --opponent-word option.UCI_LimitStrength=true --opponent-word option.UCI_Elo=1800 \
        --anchor 1800 --elos 1800 --games 20 --tc 4+0.04 --concurrency 2

Each match plays `vireo match` (the project's match runner) from balanced
openings, both colours, and prints the score, the Elo difference and the
implied rating (anchor + difference) next to the setting; a setting is well
calibrated when the two agree within the error bar. --full adds Vireo at
full strength. --ladder plays each setting against the next one instead
(self-play exaggerates the gaps, so use it for shape, not for the scale).
Fairy-Max works as an opponent too (--opponent /usr/games/fairymax --proto
xboard), with an anchor you must state yourself.
"""
from __future__ import annotations

import argparse
import math
import re
import shlex
import subprocess
import sys
from pathlib import Path

OPENINGS = Path(__file__).resolve().parents[4] / "shared" / "data" / "openings" / "8moves_v3.pgn"
_RESULT = re.compile(r"Wins: (\d+), Draws: (\d+), Losses: (\d+)")


def elo_difference(score: float) -> float:
    score = min(max(score, 1e-3), 1 - 1e-3)
    return -400.0 * math.log10(1.0 / score - 1.0)


def error_bar(wins: int, draws: int, losses: int) -> float:
    """95% error of the Elo difference (trinomial normal approximation)."""
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    variance = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / n
    sigma = math.sqrt(variance / n)
    low, high = score - 1.96 * sigma, score + 1.96 * sigma
    return (elo_difference(high) - elo_difference(low)) / 2


def _vireo_words(elo):
    words = [f"cmd={sys.executable} -m engine", "option.OwnBook=false",
             f"name={'Vireo-full' if elo is None else f'Vireo-{elo}'}"]
    if elo is not None:
        words += ["option.UCI_LimitStrength=true", f"option.UCI_Elo={elo}"]
    return words


def play(elo, args, against_elo=None) -> tuple:
    """(wins, draws, losses) of Vireo at `elo` against the opponent, or against
    Vireo at `against_elo` (ladder mode)."""
    opponent = (_vireo_words(against_elo) if against_elo is not None
                else [f"cmd={args.opponent}", f"proto={args.proto}", *args.opponent_word])
    command = [sys.executable, "-m", "engine", "match", "--engine", *_vireo_words(elo),
               "--engine", *opponent,
               "--each", f"tc={args.tc}", "--games", str(args.games), "--no-progress",
               "--concurrency", str(args.concurrency), "--seed", str(args.seed)]
    if args.openings:
        command += ["--openings", f"file={args.openings}", "order=random"]
    if args.pgnout:
        command += ["--pgnout", args.pgnout]
    done = subprocess.run(command, capture_output=True, text=True)
    match = _RESULT.search(done.stdout)
    if not match:
        raise RuntimeError(f"match failed: {shlex.join(command)}\n{done.stdout}\n{done.stderr}")
    return tuple(int(x) for x in match.groups())


def add_arguments(parser) -> None:
    parser.add_argument("--opponent", default="/usr/games/fairymax")
    parser.add_argument("--proto", default="xboard", choices=("uci", "xboard"))
    parser.add_argument("--opponent-word", action="append", default=[], metavar="KEY=VALUE",
                        help="match-runner engine word for the opponent, e.g. option.UCI_Elo=1800")
    parser.add_argument("--anchor", type=float, default=0.0, help="the opponent's rating")
    parser.add_argument("--ladder", action="store_true",
                        help="play each setting against the next one instead of the opponent")
    parser.add_argument("--elos", type=int, nargs="*", default=[1000, 1400, 1800, 2200])
    parser.add_argument("--full", action="store_true", help="also play at full strength")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--tc", default="2+0.05")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pgnout")
    parser.add_argument("--openings", default=str(OPENINGS) if OPENINGS.exists() else None,
                        help="opening suite (default: ../shared/data/openings/8moves_v3.pgn)")


def run(args) -> int:
    if args.ladder:
        return run_ladder(args)
    settings = ([None] if args.full else []) + list(args.elos or [])
    print(f"opponent {args.opponent} (anchor {args.anchor:g}), tc {args.tc}, {args.games} games each")
    print(f"{'UCI_Elo':>8} {'W-D-L':>9} {'score':>6} {'Elo diff':>14} {'implied':>8}")
    for elo in settings:
        wins, draws, losses = play(elo, args)
        score = (wins + draws / 2) / (wins + draws + losses)
        diff = elo_difference(score)
        print(f"{'full' if elo is None else elo:>8} {wins}-{draws}-{losses:<5} {score:6.3f} "
              f"{diff:+7.0f} +/-{error_bar(wins, draws, losses):4.0f} {args.anchor + diff:8.0f}", flush=True)
    return 0


def run_ladder(args) -> int:
    """Each setting against the next: the measured gap should equal the settings' gap."""
    print(f"ladder, tc {args.tc}, {args.games} games a step")
    print(f"{'pair':>11} {'W-D-L':>9} {'score':>6} {'measured gap':>18}")
    for low, high in zip(args.elos, args.elos[1:]):
        wins, draws, losses = play(high, args, against_elo=low)
        score = (wins + draws / 2) / (wins + draws + losses)
        print(f"{low:>5}-{high:<5} {wins}-{draws}-{losses:<5} {score:6.3f} "
              f"{elo_difference(score):+7.0f} +/-{error_bar(wins, draws, losses):4.0f} "
              f"(settings {high - low:+d})", flush=True)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.tools.strength_calibrate", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
