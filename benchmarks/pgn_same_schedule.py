"""How two runs of one fixed schedule (same --seed and --games, one engine
changed) differ game by game, read from their PGNs:

    python benchmarks/pgn_same_schedule.py NEW.pgn[.xz] OLD.pgn[.xz] --first NAME-NEW --other NAME-OLD

Games are matched by their Round tag (the schedule's pair and game, hence the
same opening and colours); it prints how many ended alike and the points the
first engine gained and gave back in the others (docs/results.md,
"Generation 13 against Stockfish 11").
"""
from __future__ import annotations

import argparse

from engine.tools.match.rescore import finished_games
from engine.tools.match.results import POINTS


def scores(path, name):
    """{Round: the named engine's points} over the finished games."""
    out = {}
    for _, h in finished_games([path]):
        white = POINTS[h["Result"]]
        out[h["Round"]] = white if h["White"] == name else 1.0 - white
    return out


def compare(new, old):
    """(games in both, ended alike, points gained, points given back) of new against old."""
    common = new.keys() & old.keys()
    diffs = [new[r] - old[r] for r in common]
    return (len(common), sum(d == 0 for d in diffs),
            sum(d for d in diffs if d > 0), -sum(d for d in diffs if d < 0))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("new")
    parser.add_argument("old")
    parser.add_argument("--first", required=True, help="the engine's name in NEW")
    parser.add_argument("--other", required=True, help="the engine's name in OLD")
    args = parser.parse_args(argv)
    both, alike, gained, lost = compare(scores(args.new, args.first), scores(args.old, args.other))
    print(f"{both} games in both runs, {alike} ended alike; in the other {both - alike} "
          f"{args.first} gained {gained:g} points and gave back {lost:g}")


if __name__ == "__main__":
    main()
