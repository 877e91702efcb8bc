"""Play two evaluation weight sets against each other: the engine's own
search at a fixed node count, in-process, from balanced openings, each
opening played with both colours. Strength is measured in games, not guessed
from the tuning loss.

    python -m engine.tools.tuning.compare A B [--nodes N] [--pairs P] [--workers W]

A and B: a weights file written by the tuner (core/eval/weights.pxi format),
"start" (engine/tools/tuning/start_weights.py) or "current" (compiled in).
The report is from A's point of view, with the Elo difference and its 95%
interval (pentanomial, by game pair; engine.tools.match.stats).
"""
import argparse
import multiprocessing
import sys
import time
from pathlib import Path

import chess
import chess.pgn

from engine import _core
from engine.tools.match import stats
from engine.tools.tuning.start_weights import start_weights

OPENINGS = Path(__file__).resolve().parents[5] / "shared" / "data" / "openings" / "8moves_v3.pgn"
MAX_PLIES = 400          # a game this long is scored a draw


def load_weights(spec):
    """{group: pairs} for "start", "current" or a weights file."""
    if spec == "start":
        return start_weights()
    if spec == "current":
        _core.reset_eval_weights()
        return _core.get_eval_weight_groups()
    namespace = {}
    exec(Path(spec).read_text(), namespace)      # a file the tuner wrote: a plain dict literal
    if "DEFAULT_EVAL_WEIGHTS" not in namespace:
        raise ValueError(f"{spec}: no DEFAULT_EVAL_WEIGHTS in it")
    return namespace["DEFAULT_EVAL_WEIGHTS"]


def read_openings(path, count, skip=0):
    """The first `count` openings (after `skip`) as lists of UCI moves."""
    out = []
    with open(path) as handle:
        for _ in range(skip):
            if chess.pgn.skip_game(handle) is False:
                break
        while len(out) < count:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            out.append([m.uci() for m in game.mainline_moves()])
    return out


def play_game(weights, searches, opening, white, nodes):
    """One game; white = index (0/1) of the side with white. Returns the
    result for player 0: 1, 0.5 or 0."""
    board = chess.Board()
    for uci in opening:
        board.push_uci(uci)
    while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
        side = white if board.turn == chess.WHITE else 1 - white
        # The weights are global in the core: install this side's, then build
        # the position afresh so its incremental psq uses them.
        _core.set_eval_weights(weights[side])
        pos = _core.Position()
        for move in board.move_stack:
            pos.push(move.uci())
        best, _ = searches[side].go(pos, {"nodes": nodes})
        board.push_uci(best)
    outcome = board.outcome(claim_draw=True)
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if (outcome.winner == chess.WHITE) == (white == 0) else 0.0


def play_pairs(job):
    """Game pairs until the openings or the time run out: [(score, score)]."""
    specs, openings, nodes, deadline = job
    weights = [load_weights(s) for s in specs]
    pairs = []
    for opening in openings:
        if deadline and time.time() > deadline:
            break
        pair = []
        for white in (0, 1):
            searches = []
            for _ in range(2):
                s = _core.Search()
                s.set_hash(16)
                searches.append(s)
            pair.append(play_game(weights, searches, opening, white, nodes))
        pairs.append(tuple(pair))
    return pairs


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m engine.tools.tuning.compare", description=__doc__.splitlines()[0])
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--nodes", type=int, default=20000, help="nodes per move (default 20000)")
    parser.add_argument("--pairs", type=int, default=50, help="openings, each played with both colours")
    parser.add_argument("--skip", type=int, default=0, help="openings to skip at the start of the book")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--openings", default=str(OPENINGS))
    parser.add_argument("--time-limit", type=float, default=0,
                        help="seconds: start no new pair after this (0 = no limit)")
    args = parser.parse_args(argv)
    try:
        for spec in (args.a, args.b):
            load_weights(spec)
        openings = read_openings(args.openings, args.pairs, args.skip)
    except (OSError, ValueError, SyntaxError) as exc:
        print(f"compare: {exc}", file=sys.stderr)
        return 2
    if not openings:
        print("compare: no openings read", file=sys.stderr)
        return 2
    t0 = time.time()
    workers = max(1, min(args.workers, len(openings)))
    deadline = t0 + args.time_limit if args.time_limit > 0 else 0
    jobs = [((args.a, args.b), openings[i::workers], args.nodes, deadline) for i in range(workers)]
    if workers == 1:
        results = [play_pairs(jobs[0])]
    else:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(play_pairs, jobs)
    pairs = [p for r in results for p in r]
    if not pairs:
        print("compare: no game finished", file=sys.stderr)
        return 1
    games = [g for p in pairs for g in p]
    wins, draws, losses = games.count(1.0), games.count(0.5), games.count(0.0)
    counts = [sum(1 for p in pairs if sum(p) == k / 2) for k in range(5)]
    est = stats.pentanomial(counts)
    points = wins + draws / 2
    print(f"{args.a} vs {args.b}: +{wins} ={draws} -{losses}, {points:g}/{len(games)} "
          f"({100 * points / len(games):.1f}%), Elo {est.elo:+.1f} +- {est.error:.1f} (95%, pentanomial "
          f"{counts}), {args.nodes} nodes/move, {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
