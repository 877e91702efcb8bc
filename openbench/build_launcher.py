"""`make EXE=NAME` (the top-level Makefile): build Vireo as a launcher NAME
that keeps working after the source tree is deleted.

Vireo is a Python package with one compiled module, so there is no single
self-contained binary to hand over. Instead:

1. the package's files (setup.py, pyproject.toml, src/, README.md, COPYING)
   are staged in a temporary folder, with EVALFILE, when given, as the
   network the package ships (src/engine/data/vireo.nnue);
2. their content, the Python interpreter and CC give a key;
3. a virtual environment $VIREO_BUILD_HOME/<key> (default
   ~/.cache/vireo/builds/<key>) gets the package pip-installed into it,
   non-editably, compiled with CC, with --no-build-isolation (the Cython
   and setuptools already installed; nothing is downloaded) and
   --system-site-packages (python-chess and numpy come from this Python);
4. NAME is a shell script that execs that environment's python -m engine.

The same sources built twice reuse the environment (OpenBench builds the
dev and base engines of a test one after the other); a different commit or
network gets its own. Errors go to stderr with a non-zero exit, so make and
OpenBench report a failed build.
"""
from __future__ import annotations

import argparse
import fcntl
import hashlib
import importlib.metadata
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_FILES = ("setup.py", "pyproject.toml", "README.md", "COPYING")
NETWORK_IN_PACKAGE = Path("src/engine/data/vireo.nnue")
# Build outputs an in-place build leaves beside the sources: never staged,
# so a developer's checkout and a fresh archive give the same key.
SKIPPED_SUFFIXES = (".so", ".c", ".html", ".pyc")
SKIPPED_FOLDERS = ("__pycache__", "build", ".pytest_cache")
COMPLETE = ".vireo-build-complete"
# What pyproject.toml's [build-system] requires (a test keeps the two equal).
# --no-build-isolation builds with this Python's own packages, and an older
# setuptools fails on the SPDX licence string with a message that names
# neither setuptools nor the fix.
BUILD_REQUIREMENTS = {"setuptools": 77, "Cython": 3}


def build_home() -> Path:
    home = os.environ.get("VIREO_BUILD_HOME") or ""
    return Path(home).expanduser() if home else Path.home() / ".cache" / "vireo" / "builds"


def stage_sources(stage: Path, evalfile: str) -> None:
    for name in PACKAGE_FILES:
        if not (ROOT / name).is_file():
            raise SystemExit(f"build_launcher: {ROOT / name} is missing: not a Vireo source tree")
        shutil.copy2(ROOT / name, stage / name)
    shutil.copytree(ROOT / "src", stage / "src", ignore=_ignore_build_outputs)
    if evalfile:
        network = Path(evalfile).expanduser()
        if not network.is_file():
            raise SystemExit(f"build_launcher: EVALFILE {evalfile} is not a file")
        shutil.copyfile(network, stage / NETWORK_IN_PACKAGE)


def _ignore_build_outputs(folder, names):
    # A .c beside a .pyx of its name is Cython's output; engine/_cpu.c is a source.
    return [n for n in names if (n.endswith(SKIPPED_SUFFIXES) and not _c_source(folder, n))
            or n in SKIPPED_FOLDERS or n.endswith(".egg-info")]


def _c_source(folder, name: str) -> bool:
    return name.endswith(".c") and not (Path(folder) / (name[:-2] + ".pyx")).exists()


def source_key(stage: Path, cc: str) -> str:
    """Hash of every staged file (path and bytes), the interpreter and CC."""
    digest = hashlib.sha256()
    for path in sorted(p for p in stage.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(stage)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    digest.update(f"{sys.executable}\0{sys.version}\0{cc}\0".encode())
    return digest.hexdigest()[:16]


def check_build_tools(version_of=importlib.metadata.version) -> None:
    """Exit with the pip command to run when a build tool is missing or old."""
    problems = []
    for package, major in BUILD_REQUIREMENTS.items():
        try:
            found = version_of(package)
        except importlib.metadata.PackageNotFoundError:
            problems.append(f"{package} is not installed")
            continue
        if int(found.split(".")[0]) < major:
            problems.append(f"{package} {found} is older than {major}")
    if problems:
        wanted = " ".join(f'"{name}>={major}"' for name, major in BUILD_REQUIREMENTS.items())
        raise SystemExit(f"build_launcher: {'; '.join(problems)} in {sys.executable}: "
                         f"{sys.executable} -m pip install {wanted} wheel")


def install(stage: Path, env: Path, cc: str) -> None:
    """Create the environment and pip-install the staged package into it."""
    if env.exists():
        shutil.rmtree(env)   # a build that was interrupted half-way
    # --without-pip: the venv would bundle its own old pip and setuptools,
    # shadowing the installed ones that know this pyproject.toml.
    run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(env)])
    build_env = dict(os.environ)
    if cc:
        build_env["CC"] = cc
    run([str(env / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps",
         "--no-index", "--no-build-isolation", "--no-cache-dir", str(stage)], env=build_env)
    # The installed package, not a source tree or an editable install of
    # this Python, must answer.
    check = f"import engine._core, sys; sys.exit(not engine._core.__file__.startswith({str(env)!r}))"
    run([str(env / "bin" / "python"), "-I", "-c", check], cwd="/")
    (env / COMPLETE).write_text("ok\n")


def run(command, **kwargs) -> None:
    print("+", " ".join(shlex.quote(c) for c in command), flush=True)
    result = subprocess.run(command, **kwargs)
    if result.returncode:
        raise SystemExit(f"build_launcher: failed (exit {result.returncode}): {command[0]} ...")


def write_launcher(exe: Path, env: Path, key: str) -> None:
    python = shlex.quote(str(env / "bin" / "python"))
    exe.write_text(
        "#!/bin/sh\n"
        f"# Vireo, built by `make` from sources {key} (openbench/build_launcher.py).\n"
        "# -I: no PYTHONPATH, user site or current folder may replace the installed engine.\n"
        f"exec {python} -I -m engine \"$@\"\n")
    exe.chmod(0o755)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exe", help="path of the launcher to write")
    parser.add_argument("--evalfile", default="", help="network file to ship instead of the default")
    args = parser.parse_args(argv)
    cc = os.environ.get("CC", "")
    home = build_home()
    home.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="vireo-stage-") as stage_name:
        stage = Path(stage_name)
        stage_sources(stage, args.evalfile)
        key = source_key(stage, cc)
        env = home / key
        # One build per key at a time; a second make of the same sources waits
        # for the first and then reuses its environment.
        with open(home / f"{key}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (env / COMPLETE).is_file():
                check_build_tools()
                install(stage, env, cc)
            else:
                print(f"build_launcher: reusing {env}", flush=True)
    write_launcher(Path(args.exe), env, key)
    print(f"build_launcher: {args.exe} -> {env}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
