"""Time and depth per move of each engine, read from match PGNs.

    python benchmarks/pgn_time_profile.py GAMES.pgn[.xz] ...

`vireo match` (and cutechess-cli) write `{ +0.84/18 0.917s }` after each
searched move: score, depth and the time the runner measured. This prints,
for each engine and each stretch of the game (plies 17-40, 41-80, 81 on),
the moves counted, the median and mean seconds a move and the mean depth,
and each engine's score: the figures of docs/results.md's "Where the Elo go
between nodes and the clock".
"""
from __future__ import annotations

import argparse
import lzma
import re
import statistics
import sys
from collections import defaultdict

import chess.pgn

COMMENT = re.compile(r"([+-]?(?:\d+\.\d+|M\d+|-M\d+))/(\d+) (\d+(?:\.\d+)?)s")
STRETCHES = ((17, 40), (41, 80), (81, 10_000))


def read_games(paths):
    for path in paths:
        opener = lzma.open if path.endswith(".xz") else open
        with opener(path, "rt", errors="replace") as handle:
            while (game := chess.pgn.read_game(handle)) is not None:
                yield game


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgns", nargs="+")
    args = parser.parse_args(argv)
    times = defaultdict(list)       # (engine, stretch) -> seconds
    depths = defaultdict(list)
    points = defaultdict(float)
    games = defaultdict(int)
    for game in read_games(args.pgns):
        names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
        result = game.headers.get("Result", "*")
        if result in ("1-0", "0-1", "1/2-1/2"):
            for color, name in names.items():
                games[name] += 1
                points[name] += {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result] if color else \
                    {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}[result]
        node, ply = game, 0
        while node.variations:
            node = node.variations[0]
            ply += 1
            found = COMMENT.search(node.comment or "")
            if not found:
                continue
            mover = names[not node.board().turn]
            for low, high in STRETCHES:
                if low <= ply <= high:
                    times[(mover, low)].append(float(found.group(3)))
                    depths[(mover, low)].append(int(found.group(2)))
    for name in sorted(games):
        print(f"{name}: {games[name]} games, score {points[name] / games[name]:.1%}")
        for low, high in STRETCHES:
            spent = times.get((name, low))
            if not spent:
                continue
            span = f"plies {low}-{high}" if high < 10_000 else f"plies {low}+"
            print(f"  {span:<14} {len(spent):6d} moves  median {statistics.median(spent):.3f} s  "
                  f"mean {statistics.mean(spent):.3f} s  depth {statistics.mean(depths[(name, low)]):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
