"""Each engine's score in match PGNs, split by the parity of the Round tag.

    python benchmarks/pgn_round_parity.py GAMES.pgn[.xz] ...

`vireo match --shard K/2` plays the games of one half of a fixed schedule:
those whose pair number (PAIR in the Round tag "PAIR.GAME") is odd (shard
1/2) or even (shard 2/2). The
same split of another run on that schedule (same --seed and --games) gives
the scores on the very openings one shard played, so a shard can be set
beside the full runs at other limits (docs/results.md, "Shorter and longer
searches").
"""
from __future__ import annotations

import sys
from collections import defaultdict

from engine.tools.match.rescore import finished_games
from engine.tools.match.results import POINTS


def split(path):
    """{(engine, 'odd' or 'even'): [points, games]} over the finished games
    (`vireo match --rescore`'s reader: .xz read through, unfinished left out)."""
    totals = defaultdict(lambda: [0.0, 0])
    for _, h in finished_games([path]):
        parity = "odd" if int(h["Round"].split(".")[0]) % 2 else "even"
        white = POINTS[h["Result"]]
        for name, points in ((h["White"], white), (h["Black"], 1.0 - white)):
            totals[name, parity][0] += points
            totals[name, parity][1] += 1
    return totals


def main(paths) -> int:
    if not paths:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    for path in paths:
        totals = split(path)
        print(path)
        for name in sorted({name for name, _ in totals}):
            cells = [f"{parity} {100 * p / n:.2f}% ({n})" for parity in ("odd", "even")
                     for p, n in [totals[name, parity]] if n]
            print(f"  {name}: " + ", ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
