"""benchmarks/nnue_speed.py runs end to end on a tiny sample and prints each
figure it measured: the kernels, bench and game-like nodes/s, for the SIMD
code and the plain loops of this build, and the ratio between them."""
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_tiny_run_prints_every_figure():
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "nnue_speed.py"), "--rounds", "1",
                          "--games", "1", "--plies", "3", "--nodes", "2000"],
                         capture_output=True, text=True, env=env, timeout=600)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "1 games x 3 moves at 2,000 nodes a move" in text
    rows = re.findall(r"\[(\w+)\] refresh (\d+) ns, update ([\d.]+) ns, output ([\d.]+) ns; "
                      r"bench ([\d,]+) nps \(([\d,]+) nodes\); game-like ([\d,]+) nps \(([\d,]+) nodes, ([\d,]+) refreshes\)",
                      text)
    paths = [row[0] for row in rows]
    assert "plain" in paths and len(rows) == len(set(paths)), text
    # Every configuration searched the same nodes (only the time differs).
    assert len({(row[5], row[7]) for row in rows}) == 1, rows
    assert "medians over the rounds" in text
    if len(rows) == 2:
        assert re.search(r"is faster by: bench x[\d.]+, game x[\d.]+, refresh x[\d.]+, update x[\d.]+, "
                         r"output x[\d.]+", text), text
