"""Long fault-free run: many games at very short controls, faults counted by kind.

    python benchmarks/long_run.py [--games 1024] [--per-match 32] [--out long-run-out] [--concurrency 1]
    python benchmarks/long_run.py --tally-only --out long-run-out     # count an earlier run again

Plays Vireo with `vireo match` against Fairy-Max (/usr/games/fairymax,
xboard) and against itself, cycling through Threads 1-4 and the controls
1+0.01, 2+0, 40 moves in 1 s (repeating) and one move in 0.1 s (movestogo 1):
32 combinations, --games in all (default 1024: 32 matches of 32). Then reads every PGN and
prints the count of each fault Vireo committed: illegal moves, crashes and
disconnects, stalls, time losses, clocks overstepped within the runner's
100 ms grace (a loss under a strict GUI); and the least time left on Vireo's clock
after any of its moves (the clock replayed from the TimeControl tag and the
move times the runner writes in its comments, with the runner's own Clock).
Exit status 1 when any fault was found.
"""
import argparse
import itertools
import re
import subprocess
import sys
import time
from pathlib import Path

import chess.pgn

from engine.tools.match.timecontrol import Clock, TimeControl

REPO = Path(__file__).resolve().parents[1]
OPENINGS = REPO.parent / "shared" / "data" / "openings" / "8moves_v3.pgn"
CONTROLS = ["1+0.01", "2+0", "40/1", "1/0.1"]
THREADS = [1, 2, 3, 4]
OPPONENTS = ["fairymax", "self"]
VIREO = "Vireo"
FAULTS = {"time forfeit": "time losses", "rules infraction": "illegal moves",
          "abandoned": "crashes/disconnects"}
ELAPSED = re.compile(r"(\d+\.\d+)s\b")


def configurations():
    # Every opponent meets every control and thread count before any repeats.
    return [dict(opponent=o, tc=tc, threads=t) for t, tc, o in itertools.product(THREADS, CONTROLS, OPPONENTS)]


def match_command(conf, games, pgn, concurrency):
    vireo = [f"cmd={sys.executable} -m engine", f"name={VIREO}", f"option.Threads={conf['threads']}",
             "option.Hash=16"]
    if conf["opponent"] == "fairymax":
        other = ["cmd=/usr/games/fairymax", "proto=xboard", "name=Fairy-Max"]
        openings = []     # Fairy-Max cannot set up a position: standard starts only
    else:
        other = [f"cmd={sys.executable} -m engine", f"name={VIREO}-2", f"option.Threads={conf['threads']}"]
        openings = ["--openings", f"file={OPENINGS}", "order=random"] if OPENINGS.exists() else []
    return [sys.executable, "-m", "engine", "match", "--engine", *vireo, "--engine", *other,
            "--each", f"tc={conf['tc']}", "stall=30", "--games", str(games), "--concurrency", str(concurrency),
            "--no-progress", "--pgnout", str(pgn), *openings]


def least_clock(game):
    """Least time (s) left on a Vireo clock after one of its moves in this game."""
    control = TimeControl.parse(game.headers["TimeControl"])
    clocks = {chess.WHITE: Clock(control), chess.BLACK: Clock(control)}
    vireo_sides = {c for c, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black"))
                   if game.headers[tag].startswith(VIREO)}
    least = None
    for node in game.mainline():
        mover = not node.board().turn
        found = ELAPSED.search(node.comment or "")
        if not found:
            continue      # a book or opening move: not timed
        clock = clocks[mover]
        left = clock.remaining - float(found.group(1))
        clock.punch(float(found.group(1)), margin=10.0)
        if mover in vireo_sides:
            least = left if least is None else min(least, left)
    return least


def vireo_fault(game):
    """The fault kind Vireo lost by, or None."""
    termination = game.headers.get("Termination", "")
    if termination not in FAULTS:
        return None
    loser = {"1-0": "Black", "0-1": "White"}.get(game.headers["Result"])
    if loser is None or not game.headers[loser].startswith(VIREO):
        return None
    if "stalls" in game.end().comment:
        return "stalls"
    return FAULTS[termination]


def tally(pgns):
    # "overstepped": games where Vireo's replayed clock went below zero, which
    # the runner forgives within its time margin (100 ms): a time loss under
    # a strict GUI, so it counts as a fault here too.
    counts = {kind: 0 for kind in list(FAULTS.values()) + ["stalls", "overstepped"]}
    games, least, details = 0, None, []
    for pgn in pgns:
        with open(pgn) as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                games += 1
                fault = vireo_fault(game)
                if fault:
                    counts[fault] += 1
                    details.append(f"{pgn.name} round {game.headers['Round']}: {game.end().comment}")
                left = least_clock(game)
                if left is not None and (least is None or left < least):
                    least = left
                if left is not None and left < 0 and not fault:
                    counts["overstepped"] += 1
                    details.append(f"{pgn.name} round {game.headers['Round']}: clock {left:.3f} s")
    return games, counts, least, details


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1024)
    parser.add_argument("--per-match", type=int, default=32, help="games a match (default 32)")
    parser.add_argument("--out", default="long-run-out")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--tally-only", action="store_true", help="count the PGNs already in --out")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    started, left, pgns = time.monotonic(), args.games, []
    if args.tally_only:
        left, pgns = 0, sorted(out.glob("*.pgn"))
    for index, conf in enumerate(itertools.cycle(configurations())):
        if left <= 0:
            break
        games = min(args.per_match, left)
        games += games % 2     # whole game pairs
        pgn = out / f"{index:03d}-{conf['opponent']}-t{conf['threads']}-{conf['tc'].replace('/', 'per')}.pgn"
        pgn.unlink(missing_ok=True)
        print(f"match {index + 1}: {conf}, {games} games", flush=True)
        subprocess.run(match_command(conf, games, pgn, args.concurrency), cwd=REPO, check=False,
                       stdout=subprocess.DEVNULL)
        if pgn.exists():
            pgns.append(pgn)
        left -= games
    games, counts, least, details = tally(pgns)
    print(f"games: {games}  " + "  ".join(f"{k}: {v}" for k, v in counts.items())
          + f"  least time left on Vireo's clock: {least:.3f} s  ({time.monotonic() - started:.0f} s)")
    for line in details:
        print("  " + line)
    return 1 if any(counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
