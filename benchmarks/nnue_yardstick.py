"""An outside judge for networks: the loss of the classical evaluation and of
each given network against positions that Stockfish labelled
(../shared/data/tuning: FEN;score;result, both from White's view).

    python benchmarks/nnue_yardstick.py NET.nnue [NET2.nnue ...] [--positions 40000]

Vireo's training data never contains these positions, and their scores come
from a far stronger engine, so the figure compares networks trained on
different data or with different λ (whose own validation losses measure
different targets). The loss is the trainer's: mean squared error between
sigmoid(eval / 400) and 0.3 * result + 0.7 * sigmoid(score / 400), from the
side to move's view; mate scores (|score| >= 3000) are left out.

The classical evaluation's weights were tuned on this same data
(docs/tuning.md), so its figure is flattered: read it as a mark to approach,
and compare networks with each other. It tracks play: on 100-game matches at
20,000 nodes a move, lower losses here went with better scores.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
from engine.tools.tuning.data import SHARED_TUNING, read_positions  # noqa: E402

MATE_CUTOFF = 3000
WDL, SCALE = 0.3, 400.0


def load(folder: Path, count: int, seed: int):
    """`count` positions without a mate score, drawn by a seeded shuffle;
    score and result from the side to move's view."""
    all_fens, all_scores, all_results = read_positions(sorted(folder.glob("*.txt.gz")), mate_clamp=None)
    if not all_fens:
        raise SystemExit(f"nnue_yardstick: no *.txt.gz positions in {folder}")
    order = list(range(len(all_fens)))
    random.Random(seed).shuffle(order)
    chosen = [i for i in order if abs(all_scores[i]) < MATE_CUTOFF][:count]
    fens = [all_fens[i] for i in chosen]
    white = np.array([fen.split()[1] == "w" for fen in fens])
    scores = np.where(white, all_scores[chosen], -all_scores[chosen])
    results = np.where(white, all_results[chosen], 1 - all_results[chosen])
    return fens, scores, results


def sigmoid(centipawns):
    return 1 / (1 + np.exp(-np.asarray(centipawns, dtype=float) / SCALE))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("networks", nargs="*", help=".nnue files to judge")
    parser.add_argument("--positions", type=int, default=40000)
    parser.add_argument("--seed", type=int, default=1, help="which positions (a shuffle of the files)")
    parser.add_argument("--data", type=Path, default=SHARED_TUNING)
    args = parser.parse_args(argv)
    from engine import _core

    fens, scores, results = load(args.data, args.positions, args.seed)
    target = WDL * results + (1 - WDL) * sigmoid(scores)

    def report(name, evals):
        evals = np.asarray(evals, dtype=float)
        loss = float(np.mean((sigmoid(evals) - target) ** 2))
        print(f"{name:<40} loss {loss:.6f}   correlation with Stockfish {np.corrcoef(evals, scores)[0, 1]:.4f}")

    print(f"{len(fens)} positions of {args.data}")
    report("classical evaluation", [_core.static_eval(_core.Position(fen)) for fen in fens])
    for path in args.networks:
        try:
            _core.load_network(path)
        except (OSError, ValueError) as exc:
            print(f"{path}: cannot load: {exc}", file=sys.stderr)
            return 2
        report(path, [_core.Position(fen).nnue_eval() for fen in fens])
    return 0


if __name__ == "__main__":
    sys.exit(main())
