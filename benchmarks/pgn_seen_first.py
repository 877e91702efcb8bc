"""Who saw a lost game coming first, read from match PGNs.

    python benchmarks/pgn_seen_first.py GAMES.pgn[.xz] ... [--edge 150]

For each won game: the ply from which the winner's own score stayed at
least `--edge` cp to the end, and the ply from which the loser's own score
stayed at most -`--edge` cp. The loser's *lag* is the second minus the
first: how many plies the loser went on thinking it was not lost after the
winner knew it was winning. An engine whose search or evaluation misses
what the other sees would show longer lags as the loser; docs/results.md
("Where the Elo go between nodes and the clock") sets the two side by side.
A game where either run never forms (a late blunder, a loss on time) is
counted apart.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import chess

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pgn_decided import mover_score_cp, phase  # noqa: E402
from pgn_time_profile import read_games  # noqa: E402


def run_start(scores, holds):
    """The first (ply, phase) of the run of `scores` entries at the end for which holds(score) is true."""
    start = None
    for ply, score, material in reversed(scores):
        if not holds(score):
            break
        start = (ply, material)
    return start


def lags(games, edge_cp: int):
    """{loser: [(lag in plies, phase when the winner saw it)]}, {loser: games without both runs}."""
    found, unformed = defaultdict(list), defaultdict(int)
    for game in games:
        result = game.headers.get("Result")
        if result not in ("1-0", "0-1"):
            continue
        winner = chess.WHITE if result == "1-0" else chess.BLACK
        own = {chess.WHITE: [], chess.BLACK: []}        # each side's (ply, own score, phase)
        node, ply = game, 0
        while node.variations:
            node = node.variations[0]
            ply += 1
            score = mover_score_cp(node.comment)
            if score is not None:
                board = node.board()
                own[not board.turn].append((ply, score, phase(board)))
        loser = game.headers.get("Black" if winner == chess.WHITE else "White", "?")
        seen_win = run_start(own[winner], lambda s: s >= edge_cp)
        seen_loss = run_start(own[not winner], lambda s: s <= -edge_cp)
        if seen_win is None or seen_loss is None:
            unformed[loser] += 1
            continue
        found[loser].append((seen_loss[0] - seen_win[0], seen_win[1]))
    return found, unformed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgns", nargs="+")
    parser.add_argument("--edge", type=int, default=150, help="own score (cp) that counts as seen")
    args = parser.parse_args(argv)
    found, unformed = lags(read_games(args.pgns), args.edge)
    for name in sorted(set(found) | set(unformed)):
        rows = found[name]
        print(f"{name} as the loser: {len(rows)} games", end="")
        if rows:
            lag = [r[0] for r in rows]
            print(f", lag median {statistics.median(lag):g} plies, mean {statistics.mean(lag):.1f},"
                  f" 10+ plies in {sum(x >= 10 for x in lag)}, none in {sum(x <= 0 for x in lag)};"
                  f" phase when the winner saw it, median {statistics.median(r[1] for r in rows):g}", end="")
        print(f"; {unformed[name]} without both runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
