"""The wheel a user gets: built with `python -m build` (the sdist, then the
wheel from it: the dispatch build, four cores), made manylinux by
`auditwheel repair`, checked by `twine check`, installed into a fresh
virtualenv with no compiler reachable, and run: `vireo bench` with the
source build's signature, a game through python-chess, `vireo perft`;
under qemu-user with older CPU models it takes the lower paths.

One build serves the module (about a minute and a half on two cores)."""
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import chess
import chess.engine
import pytest
from conftest import REPO, require_program

BENCH_SIGNATURE = 2610854          # tests/uci/test_bench.py: the source build's
SMALL_DEPTH = 5                    # a bench an emulated CPU runs in seconds


def run(command, **kwargs):
    kwargs.setdefault("timeout", 900)
    done = subprocess.run(command, capture_output=True, text=True, **kwargs)
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(sdist, manylinux wheel) as `python -m build` and `auditwheel repair` make them."""
    for tool in ("build", "auditwheel", "twine"):
        pytest.importorskip(tool)
    out = tmp_path_factory.mktemp("dist")
    source = tmp_path_factory.mktemp("checkout") / "vireo"
    # A clean copy of the tracked sources: an in-place build's outputs never leak in.
    files = run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=REPO).stdout.split("\0")
    for name in filter(None, files):
        if (REPO / name).is_file() and not name.startswith(("data/selfplay", "benchmarks/results")):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    run([sys.executable, "-m", "build", "--outdir", str(out), str(source)])
    sdist = next(out.glob("*.tar.gz"))
    plain = next(out.glob("*-linux_x86_64.whl"))
    run([sys.executable, "-m", "auditwheel", "repair", str(plain), "-w", str(out / "repaired")])
    wheel = next((out / "repaired").glob("*manylinux*.whl"))
    return sdist, wheel


@pytest.fixture(scope="module")
def venv(built, tmp_path_factory):
    """A fresh virtualenv with the wheel installed, no compiler on PATH or in CC."""
    home = tmp_path_factory.mktemp("venv") / "env"
    run([sys.executable, "-m", "venv", str(home)])
    bare = os.pathsep.join([str(home / "bin"), str(tmp_path_factory.mktemp("nothing"))])
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "CXX", "LDSHARED", "PYTHONPATH")}
    env["PATH"] = bare
    for compiler in ("cc", "gcc", "clang", "c++"):
        assert shutil.which(compiler, path=bare) is None
    run([str(home / "bin" / "python"), "-m", "pip", "install", "--quiet", str(built[1])], env=env)
    return home, env


def vireo(venv, *args, prefix=(), extra_env=None):
    home, env = venv
    return run([*prefix, str(home / "bin" / "python"), "-m", "engine", *args],
               env=dict(env, **(extra_env or {})), cwd=str(home))


def nodes_searched(output):
    return int(re.search(r"Nodes searched: (\d+)", output).group(1))


def test_twine_checks_the_sdist_and_the_wheel(built):
    run([sys.executable, "-m", "twine", "check", "--strict", *map(str, built)])


def test_the_wheel_holds_the_package_and_nothing_else(built):
    sdist, wheel = built
    assert re.search(r"-cp\d+-cp\d+-manylinux_\d+_\d+_x86_64\.whl$", wheel.name), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    for level in ("x86_64", "x86_64_v2", "x86_64_v3", "x86_64_v4"):
        assert any(re.match(rf"engine/_core_{level}\.cpython-.*\.so$", n) for n in names), level
    assert "engine/_core.py" in names and any(n.startswith("engine/_cpu.") for n in names)
    assert {"engine/data/vireo.nnue", "engine/data/vireo.bin"} <= set(names)
    assert any(n.endswith(".dist-info/licenses/COPYING") for n in names)
    assert not [n for n in names if n.startswith(("tests/", "data/", "benchmarks/")) or "selfplay" in n
                or n.endswith((".c", ".pgn.xz"))]
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("METADATA"))).decode()
    assert "Requires-Python: >=3.9" in metadata and "Topic :: Games/Entertainment :: Board Games" in metadata
    assert "# Vireo" in metadata                          # the README, as the long description
    size_mb = wheel.stat().st_size / 2**20
    print(f"\nwheel {wheel.name}: {size_mb:.1f} MB; sdist {sdist.stat().st_size / 2**20:.1f} MB")
    assert size_mb < 8


def test_installed_without_a_compiler_it_benches_plays_and_counts(venv):
    version = vireo(venv, "--version").stdout
    assert re.match(r"Vireo \d", version) and "(dispatched)" in version
    assert nodes_searched(vireo(venv, "bench").stdout) == BENCH_SIGNATURE
    assert nodes_searched(vireo(venv, "perft", "--depth", "4").stdout) == 197281
    home, env = venv
    with chess.engine.SimpleEngine.popen_uci([str(home / "bin" / "vireo")], env=env) as engine:
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 24:
            board.push(engine.play(board, chess.engine.Limit(depth=4)).move)
        assert board.ply() >= 12 and board.is_valid()


def test_without_an_emulator_the_best_path_of_this_cpu(venv):
    home, env = venv
    level = int(run([str(home / "bin" / "python"), "-c", "import engine._cpu as c; print(c.level())"],
                    env=env).stdout)
    levels = ("x86-64", "x86-64-v2", "x86-64-v3", "x86-64-v4")
    assert f"core: {levels[level - 1]}," in vireo(venv, "--version").stdout
    forced = vireo(venv, "--version", extra_env={"VIREO_CPU_LEVEL": "x86-64-v2"}).stdout
    assert "core: x86-64-v2, POPCNT (dispatched)" in forced


@pytest.mark.parametrize("model, path", [
    ("Nehalem", "x86-64-v2, POPCNT"),   # SSE4.2 and POPCNT, no AVX
    ("qemu64", "x86-64, SSE2"),         # the baseline
])
def test_under_an_older_cpu_the_lower_path_and_the_same_signature(venv, model, path):
    qemu = require_program("qemu-x86_64", "qemu-user")
    emulated = (qemu, "-cpu", model)
    assert f"core: {path} (dispatched)" in vireo(venv, "--version", prefix=emulated).stdout
    native = nodes_searched(vireo(venv, "bench", str(SMALL_DEPTH)).stdout)
    assert nodes_searched(vireo(venv, "bench", str(SMALL_DEPTH), prefix=emulated).stdout) == native
    home, env = venv
    dialogue = run([qemu, "-cpu", model, str(home / "bin" / "python"), "-m", "engine"], env=env,
                   input="uci\nsetoption name OwnBook value false\nposition startpos\ngo depth 4\nquit\n").stdout
    assert dialogue.splitlines()[-1].startswith("bestmove ")


LEVEL_CHECK = """
import random, sys, importlib
import chess
levels = [int(x) for x in sys.argv[1:]]
names = {1: "x86_64", 2: "x86_64_v2", 3: "x86_64_v3", 4: "x86_64_v4"}
from engine.uci.network import SHIPPED_NETWORK
rng, board, fens = random.Random(5), chess.Board(), []
while len(fens) < 300:
    if board.is_game_over() or board.ply() > 120:
        board = chess.Board()
    board.push(rng.choice(list(board.legal_moves)))
    fens.append(board.fen())
results = {}
for level in levels:
    core = importlib.import_module("engine._core_" + names[level])
    core.load_network(str(SHIPPED_NETWORK))
    compiled = core.simd_path()
    core.set_nnue_simd(False)
    plain = [core.Position(f).nnue_eval_full() for f in fens]
    core.set_nnue_simd(compiled != "plain")
    simd = [core.Position(f).nnue_eval_full() for f in fens]
    incremental = []
    for f in fens[:60]:
        p = core.Position(f)
        for m in p.legal_moves()[:5]:
            p.push(m); incremental.append(p.nnue_eval()); p.pop()
    results[level] = (compiled, plain, simd, incremental)
    assert simd == plain, (level, compiled)
first = results[levels[0]]
for level in levels:
    assert results[level][1:] == first[1:], level
print(" ".join(f"{level}:{results[level][0]}" for level in levels))
"""


def test_each_level_s_kernels_give_the_plain_loops_integers(venv):
    """Every core this CPU runs: its SIMD kernels equal its plain loops, and
    every core gives the same integers (full refreshes and incremental updates)."""
    home, env = venv
    best = int(run([str(home / "bin" / "python"), "-c", "import engine._cpu as c; print(c.level())"],
                   env=env).stdout)
    levels = [str(level) for level in range(1, best + 1)]
    done = run([str(home / "bin" / "python"), "-c", LEVEL_CHECK, *levels], env=env, cwd=str(home))
    paths = dict(item.split(":") for item in done.stdout.split())
    expected = {"1": "plain", "2": "plain", "3": "avx2", "4": "avx512"}
    assert paths == {level: expected[level] for level in levels}
