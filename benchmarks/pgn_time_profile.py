"""Time and depth per move of each engine, read from match PGNs.

    python benchmarks/pgn_time_profile.py GAMES.pgn[.xz] ...

`vireo match` (and cutechess-cli) write `{ +0.84/18 0.917s }` after each
searched move: score, depth and the time the runner measured. This prints,
for each engine and each stretch of the game (plies 17-40, 41-80, 81 on),
the moves counted, the median and mean seconds a move and the mean depth,
and each engine's score: the figures of docs/results.md's "Where the Elo go
between nodes and the clock". With a clock (a TimeControl header like
`10+0.1`) also the seconds its first 20 searched moves took, and the clock
it had left at the end of games where it made 50 moves or more (the
runner's times; medians over games): how it spreads the clock over a game.
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
    first20 = defaultdict(list)     # engine -> seconds of its first 20 searched moves, per game
    left_end = defaultdict(list)    # engine -> clock left after its last move, games of 50+ of its moves
    for game in read_games(args.pgns):
        names = {chess.WHITE: game.headers.get("White", "?"), chess.BLACK: game.headers.get("Black", "?")}
        result = game.headers.get("Result", "*")
        if result in ("1-0", "0-1", "1/2-1/2"):
            for color, name in names.items():
                games[name] += 1
                points[name] += {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result] if color else \
                    {"1-0": 0.0, "0-1": 1.0, "1/2-1/2": 0.5}[result]
        clock = re.fullmatch(r"(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)", game.headers.get("TimeControl", ""))
        spent_by = defaultdict(list)
        node, ply = game, 0
        while node.variations:
            node = node.variations[0]
            ply += 1
            found = COMMENT.search(node.comment or "")
            if not found:
                continue
            mover = names[not node.board().turn]
            spent_by[mover].append(float(found.group(3)))
            for low, high in STRETCHES:
                if low <= ply <= high:
                    times[(mover, low)].append(float(found.group(3)))
                    depths[(mover, low)].append(int(found.group(2)))
        if clock:
            base, inc = float(clock.group(1)), float(clock.group(2))
            for name, spent in spent_by.items():
                if len(spent) >= 20:
                    first20[name].append(sum(spent[:20]))
                if len(spent) >= 50:
                    left_end[name].append(base + inc * len(spent) - sum(spent))
    for name in sorted(games):
        print(f"{name}: {games[name]} games, score {points[name] / games[name]:.1%}")
        for low, high in STRETCHES:
            spent = times.get((name, low))
            if not spent:
                continue
            span = f"plies {low}-{high}" if high < 10_000 else f"plies {low}+"
            print(f"  {span:<14} {len(spent):6d} moves  median {statistics.median(spent):.3f} s  "
                  f"mean {statistics.mean(spent):.3f} s  depth {statistics.mean(depths[(name, low)]):.1f}")
        if first20.get(name):
            print(f"  first 20 searched moves: median {statistics.median(first20[name]):.2f} s")
        if left_end.get(name):
            print(f"  clock left after games of 50+ moves ({len(left_end[name])}): "
                  f"median {statistics.median(left_end[name]):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
