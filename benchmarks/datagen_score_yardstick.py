"""How close datagen's kept scores come to Stockfish 15.1's, by score rule.

    python benchmarks/datagen_score_yardstick.py [--positions 2000] [--nodes 5000] [--seed 65]

The yardstick: positions of ../shared/data/tuning/selfplay-1.txt.gz, which
Stockfish 15.1 scored at 5,000 nodes (the label), drawn at random with the
seed, none with a label of 2,000 cp or more (mates and near-mates); the
labels are White's view, the search scores are turned to it. Each is
searched as datagen searches it (engine/data/vireo.nnue, one thread, 16 MB,
a fresh table) with --nodes, and its score read by each rule:

  last       stop at --nodes inside an iteration and keep the core's last
             line, that iteration's partial result (datagen before
             2026-12-06, `--scores last`);
  iteration  the same search, but the last iteration it completed (tried
             on the way: shallower by a ply, and worse);
  completed  --nodes as a soft limit: no new iteration past it, so the
             search ends on a completed iteration (datagen now, `--scores
             completed`; it costs more nodes).

Printed for each rule: Spearman's rank correlation with the label, the
loss at the best scale (the mean squared difference between
sigmoid(label / 400) and sigmoid(a * score / 400), a fitted once per rule
on a grid, as Texel tuning would compare evaluations), the mean nodes
searched and how often its score differs from the `last` rule's. Positions
where a rule has no centipawn score are left out of all rules alike.
"""
from __future__ import annotations

import argparse
import gzip
import random
import sys
import time
from pathlib import Path

import numpy as np
from scipy.stats import spearmanr

from engine import _core
from engine.tools.nnue.datagen.game import GameSettings, completed_score, search_limits, search_score

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "tuning" / "selfplay-1.txt.gz"
NETWORK = ROOT / "src" / "engine" / "data" / "vireo.nnue"
LABEL_LIMIT = 2000


def sample(path: Path, count: int, seed: int):
    with gzip.open(path, "rt") as handle:
        rows = [line.rstrip("\n").split(";") for line in handle]
    rows = [(fen, int(score)) for fen, score, _ in rows if abs(int(score)) < LABEL_LIMIT]
    return random.Random(seed).sample(rows, count)


def loss_at_best_scale(labels, scores):
    target = 1 / (1 + np.exp(-labels / 400))
    best = None
    for a in np.arange(0.3, 2.51, 0.01):
        loss = float(np.mean((target - 1 / (1 + np.exp(-a * scores / 400))) ** 2))
        if best is None or loss < best[0]:
            best = (loss, a)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=2000)
    parser.add_argument("--nodes", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=65)
    args = parser.parse_args(argv)

    _core.load_network(str(NETWORK))
    search = _core.Search()
    search.set_option("use_nnue", True)
    rules = ("last", "iteration", "completed")
    rows = {rule: [] for rule in rules}
    nodes = {rule: [] for rule in rules}
    labels = []
    started = time.perf_counter()
    for fen, label in sample(DATA, args.positions, args.seed):
        position = _core.Position(fen)
        runs = {}
        for scores in ("last", "completed"):
            infos = []
            search.clear_hash()
            search.go(position, search_limits(GameSettings(nodes=args.nodes, scores=scores)), infos.append)
            runs[scores] = infos
        scores = {"last": search_score(runs["last"]), "iteration": completed_score(runs["last"]),
                  "completed": completed_score(runs["completed"])}
        if any(kind != "cp" for kind, _ in scores.values()):
            continue
        labels.append(label)
        white = 1 if " w " in fen else -1      # the labels are White's view, the core's the mover's
        for rule, (_, cp) in scores.items():
            rows[rule].append(white * cp)
            nodes[rule].append(runs["completed" if rule == "completed" else "last"][-1]["nodes"])
    label_array = np.array(labels, dtype=float)
    print(f"{len(labels)} positions of {DATA.name} (seed {args.seed}, |label| < {LABEL_LIMIT}), "
          f"{args.nodes} nodes, {time.perf_counter() - started:.0f} s")
    print(f"{'rule':<10} {'Spearman':>9} {'loss':>9} {'scale':>6} {'nodes':>8} {'differs':>8}")
    for rule in rows:
        scores = np.array(rows[rule], dtype=float)
        rho = spearmanr(label_array, scores).statistic
        loss, scale = loss_at_best_scale(label_array, scores)
        differs = sum(a != b for a, b in zip(rows[rule], rows["last"]))
        print(f"{rule:<10} {rho:>9.4f} {loss:>9.5f} {scale:>6.2f} {np.mean(nodes[rule]):>8.0f} "
              f"{differs / len(labels):>7.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
