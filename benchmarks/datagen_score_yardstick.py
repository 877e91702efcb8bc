"""How close datagen's kept scores come to Stockfish 15.1's, by score rule.

    python benchmarks/datagen_score_yardstick.py [--positions 2000] [--nodes 5000] [--seed 65]

The yardstick: positions of ../shared/data/tuning/selfplay-1.txt.gz, which
Stockfish 15.1 scored at 5,000 nodes (the label), drawn at random with the
seed, none with a label of 2,000 cp or more (mates and near-mates); the
labels are White's view, the search scores are turned to it. Each is
searched as datagen searches it (engine/data/vireo.nnue, one thread, 16 MB,
a fresh table) at --nodes, and its score read by each rule:

  last       the core's last line: the stopped iteration's partial result
             (datagen's rule before 2026-12-06, `--scores last`);
  completed  the last iteration the search completed (`--scores completed`);
  soft       the first iteration to complete past --nodes (a soft node
             limit: deeper, and costs more nodes; shown for comparison).

Printed for each rule: Spearman's rank correlation with the label, and the
loss at the best scale: the mean squared difference between
sigmoid(label / 400) and sigmoid(a * score / 400), a fitted once per rule
on a grid, as Texel tuning would compare evaluations; and the mean nodes
searched. Positions where a rule has no centipawn score are left out of all
rules alike.
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
from engine.tools.nnue.datagen.game import completed_score, search_score

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "tuning" / "selfplay-1.txt.gz"
NETWORK = ROOT / "src" / "engine" / "data" / "vireo.nnue"
LABEL_LIMIT = 2000


def sample(path: Path, count: int, seed: int):
    with gzip.open(path, "rt") as handle:
        rows = [line.rstrip("\n").split(";") for line in handle]
    rows = [(fen, int(score)) for fen, score, _ in rows if abs(int(score)) < LABEL_LIMIT]
    return random.Random(seed).sample(rows, count)


def soft_score(infos, nodes):
    """The first completed iteration that reached `nodes` (the search ran well past it)."""
    done = [i for i in infos[:-1] if i.get("bound") is None and i.get("multipv", 1) == 1]
    for info in done:
        if info["nodes"] >= nodes:
            return info["score"], info["nodes"]
    return done[-1]["score"], done[-1]["nodes"]


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
    rows = {"last": [], "completed": [], "soft": []}
    labels, nodes = [], {"last": [], "completed": [], "soft": []}
    started = time.perf_counter()
    for fen, label in sample(DATA, args.positions, args.seed):
        position = _core.Position(fen)
        infos = []
        search.clear_hash()
        search.go(position, {"nodes": args.nodes}, infos.append)
        long = []
        search.clear_hash()
        search.go(position, {"nodes": 40 * args.nodes}, long.append)
        soft, soft_nodes = soft_score(long, args.nodes)
        scores = {"last": search_score(infos), "completed": completed_score(infos), "soft": soft}
        if any(kind != "cp" for kind, _ in scores.values()):
            continue
        labels.append(label)
        white = 1 if " w " in fen else -1      # the labels are White's view, the core's the mover's
        for rule, (_, cp) in scores.items():
            rows[rule].append(white * cp)
        nodes["last"].append(infos[-1]["nodes"])
        nodes["completed"].append(infos[-1]["nodes"])
        nodes["soft"].append(soft_nodes)
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
