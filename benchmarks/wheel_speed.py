"""The dispatched wheel against the -march=native source build, in one sitting.

    python benchmarks/wheel_speed.py [--rounds 5] [--wheel-env DIR]

1. `vireo bench` nodes/s of the installed wheel (its best core for this CPU)
   and of this checkout's source build, alternated (the other first each
   round); the ratio is taken per round and the median reported.
2. The NNUE kernels (ns per refresh, update and output, the minimum of 5
   timings over 200 positions) of every core of the wheel this CPU runs and
   of the source build.

Without --wheel-env the wheel is built first as a user would (`python -m
build`, then `auditwheel repair`) and installed into a fresh virtualenv in a
temporary folder (about two minutes on two cores).
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LEVELS = {1: "x86_64", 2: "x86_64_v2", 3: "x86_64_v3", 4: "x86_64_v4"}

KERNELS = r"""
import json, random, sys, importlib
import chess
module = importlib.import_module(sys.argv[1])
from engine.uci.network import SHIPPED_NETWORK
module.load_network(str(SHIPPED_NETWORK))
rng, board, positions = random.Random(3), chess.Board(), []
while len(positions) < 200:
    if board.is_game_over() or board.ply() > 120:
        board = chess.Board()
    board.push(rng.choice(list(board.legal_moves)))
    positions.append(module.Position(board.fen()))
best = {}
for _ in range(5):
    timing = module.nnue_kernel_speed(positions, rounds=20)
    for kernel, count in (("refresh", "refreshes"), ("update", "updates"), ("output", "outputs")):
        ns = timing[kernel + "_ns"] / timing[count]
        best[kernel] = min(best.get(kernel, ns), ns)
print(json.dumps({"simd": module.simd_path(), **best}))
"""


def run(command, **kwargs) -> str:
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    if done.returncode:
        raise SystemExit(f"{' '.join(map(str, command))} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout


def build_wheel_env(folder: Path) -> Path:
    out = folder / "dist"
    run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)])
    plain = next(out.glob("*-linux_x86_64.whl"))
    run([sys.executable, "-m", "auditwheel", "repair", str(plain), "-w", str(out / "repaired")])
    env = folder / "env"
    run([sys.executable, "-m", "venv", str(env)])
    run([str(env / "bin" / "python"), "-m", "pip", "install", "--quiet", str(next((out / "repaired").glob("*.whl")))])
    return env


def bench_rate(python: str, cwd: Path) -> tuple:
    output = run([python, "-m", "engine", "bench"], cwd=str(cwd))
    nodes = int(re.search(r"Nodes searched: (\d+)", output).group(1))
    rate = int(re.search(r"Nodes/second: (\d+)", output).group(1))
    core = re.search(r"Core: (.*)", output).group(1)
    return nodes, rate, core


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--wheel-env", type=Path, help="a virtualenv where the wheel is installed")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        env = args.wheel_env or build_wheel_env(Path(scratch))
        wheel_python = str(env / "bin" / "python")
        ratios, rates = [], {"wheel": [], "source": []}
        for round_number in range(args.rounds):
            order = ["wheel", "source"] if round_number % 2 == 0 else ["source", "wheel"]
            found = {}
            for name in order:
                # the wheel runs outside the checkout, so its own package is the one imported
                python, cwd = (wheel_python, Path(scratch)) if name == "wheel" else (sys.executable, REPO)
                found[name] = bench_rate(python, cwd)
                rates[name].append(found[name][1])
            if found["wheel"][0] != found["source"][0]:
                raise SystemExit(f"bench signatures differ: wheel {found['wheel'][0]}, source {found['source'][0]}")
            ratios.append(found["wheel"][1] / found["source"][1])
        print(f"vireo bench, {args.rounds} rounds alternated, signature {found['source'][0]}:")
        print(f"  wheel  ({found['wheel'][2]}): median {statistics.median(rates['wheel']):,.0f} nodes/s")
        print(f"  source ({found['source'][2]}): median {statistics.median(rates['source']):,.0f} nodes/s")
        print(f"  wheel / source per round: {', '.join(f'{r:.3f}' for r in ratios)}; "
              f"median {statistics.median(ratios):.3f}")

        level = int(run([wheel_python, "-c", "import engine._cpu as c; print(c.level())"], cwd=scratch))
        print("NNUE kernels, ns (minimum of 5 timings, 200 positions):")
        print(f"  {'core':<28} {'simd':<7} {'refresh':>9} {'update':>8} {'output':>8}")
        cores = [(f"wheel x86-64{'-v' + str(n) if n > 1 else ''}", wheel_python, f"engine._core_{LEVELS[n]}", scratch)
                 for n in range(1, level + 1)]
        cores.append(("source build (native)", sys.executable, "engine._core", str(REPO)))
        for name, python, module, cwd in cores:
            timing = json.loads(run([python, "-c", KERNELS, module], cwd=cwd))
            print(f"  {name:<28} {timing['simd']:<7} {timing['refresh']:9.1f} {timing['update']:8.1f} "
                  f"{timing['output']:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
