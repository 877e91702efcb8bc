"""`make -j EXE=NAME` as OpenBench's client runs it (Client/utils.py:
prepare_engine): from the unpacked source zip, with CC=, the binary moved
out and the source tree deleted. NAME must still play and bench, and its
bench must be read by OpenBench's own parser (Client/bench.py)."""
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import chess
import chess.engine
import pytest
from conftest import REPO
from openbench_site import (openbench_bench_parser, require_openbench, unpack_openbench,  # noqa: F401
                            vireo_build_home, vireo_source_zip)

sys.path.insert(0, str(REPO / "openbench"))
import build_launcher  # noqa: E402


def build_from_zip(tmp_path: Path, build_home: Path, name: str) -> Path:
    _sha, archive = vireo_source_zip(tmp_path)
    unpacked = tmp_path / "unpacked"
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(unpacked)
    tree = unpacked / os.listdir(unpacked)[0]
    env = dict(os.environ, VIREO_BUILD_HOME=str(build_home))
    env.pop("PYTHONPATH", None)
    done = subprocess.run(["make", "-j", f"EXE={name}", "CC=gcc"], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    launcher = tmp_path / name
    shutil.move(tree / name, launcher)
    shutil.rmtree(unpacked)
    archive.unlink()
    return launcher


def test_launcher_outlives_its_sources_and_benches_for_openbench(tmp_path, vireo_build_home):
    require_openbench()
    launcher = build_from_zip(tmp_path, vireo_build_home, "Vireo-make")
    # OpenBench runs ./NAME bench from the folder the binary was moved to,
    # stdout and stderr together, and parses the last matching lines
    bench = subprocess.run([f"./{launcher.name}", "bench"], cwd=tmp_path, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=300)
    assert bench.returncode == 0, bench.stdout.decode()
    parse = openbench_bench_parser(unpack_openbench(tmp_path / "ob"))
    nodes, nps = parse(bench.stdout)
    lines = bench.stdout.decode().splitlines()
    per_position = [int(line.split("  nodes ")[1].split()[0]) for line in lines if line.startswith("Position")]
    assert len(per_position) > 10
    assert nodes == sum(per_position)          # the total, not one position's count
    assert f"Nodes searched: {nodes}" in lines
    assert nps > 0
    with chess.engine.SimpleEngine.popen_uci([str(launcher)], cwd=str(tmp_path)) as engine:
        board = chess.Board()
        for _ in range(4):
            move = engine.play(board, chess.engine.Limit(nodes=3000)).move
            assert move in board.legal_moves
            board.push(move)


def test_same_sources_reuse_the_environment_and_evalfile_is_shipped(tmp_path, monkeypatch):
    cc = "gcc"
    plain, network_build = tmp_path / "plain", tmp_path / "network"
    plain.mkdir(), network_build.mkdir()
    build_launcher.stage_sources(plain, "")
    other = tmp_path / "other.nnue"
    other.write_bytes(b"not the shipped network")
    build_launcher.stage_sources(network_build, str(other))
    assert (network_build / build_launcher.NETWORK_IN_PACKAGE).read_bytes() == other.read_bytes()
    assert build_launcher.source_key(plain, cc) != build_launcher.source_key(network_build, cc)
    assert build_launcher.source_key(plain, cc) != build_launcher.source_key(plain, "clang")
    again = tmp_path / "again"
    again.mkdir()
    build_launcher.stage_sources(again, "")
    assert build_launcher.source_key(plain, cc) == build_launcher.source_key(again, cc)


def test_a_missing_evalfile_fails_the_build_clearly(tmp_path):
    done = subprocess.run(["make", "-C", str(REPO), f"EXE={tmp_path / 'never'}",
                           f"EVALFILE={tmp_path / 'missing.nnue'}", f"VIREO_BUILD_HOME={tmp_path}"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "EVALFILE" in done.stderr and "is not a file" in done.stderr
    assert not (tmp_path / "never").exists()


def test_cc_is_the_compiler_that_builds_the_core(tmp_path):
    # A CC that only says it was called: the build must use it, then fail on it
    called = tmp_path / "cc-was-called"
    fake_cc = tmp_path / "fake-cc"
    fake_cc.write_text(f"#!/bin/sh\necho \"$@\" > {called}\nexit 1\n")
    fake_cc.chmod(0o755)
    done = subprocess.run(["make", "-C", str(REPO), f"EXE={tmp_path / 'never'}", f"CC={fake_cc}",
                           f"VIREO_BUILD_HOME={tmp_path / 'builds'}"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode != 0
    assert "_core.c" in called.read_text()
    assert not (tmp_path / "never").exists()


def test_old_or_missing_build_tools_fail_with_the_pip_command():
    # pip's own error for an old setuptools is a pyproject validation dump
    # naming neither the package nor the fix
    versions = {"setuptools": "65.5.0", "Cython": "3.1.2"}

    def version_of(name):
        if name not in versions:
            raise build_launcher.importlib.metadata.PackageNotFoundError(name)
        return versions[name]

    with pytest.raises(SystemExit) as old:
        build_launcher.check_build_tools(version_of)
    assert "setuptools 65.5.0 is older than 77" in str(old.value)
    assert 'pip install "setuptools>=77" "Cython>=3"' in str(old.value)
    del versions["Cython"]
    versions["setuptools"] = "80.9.0"
    with pytest.raises(SystemExit) as missing:
        build_launcher.check_build_tools(version_of)
    assert "Cython is not installed" in str(missing.value) and "older" not in str(missing.value)
    versions["Cython"] = "3.0.11"
    build_launcher.check_build_tools(version_of)   # new enough: no exit


def test_build_requirements_match_pyproject():
    requires = (REPO / "pyproject.toml").read_text().split("[build-system]")[1].split("\n[")[0]
    for name, major in build_launcher.BUILD_REQUIREMENTS.items():
        assert f'"{name}>={major}' in requires
