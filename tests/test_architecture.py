"""The layers of docs/architecture.md, enforced.

Python imports: import-linter checks the contracts in pyproject.toml (layers
run one way; no import circle in any package). The native core is Cython and
invisible to it, so its parts are read here: they may cimport C libraries and
import the standard library, never the Python layers above them.
"""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

SRC = REPO / "src"
CORE_FILES = sorted((SRC / "engine").glob("_core.p*")) + sorted((SRC / "engine" / "core").rglob("*.pxi"))
# `import x` / `from x import` / `cimport x` at the start of a line of Cython source
IMPORT = re.compile(r"^\s*(?:from\s+(\S+)\s+c?import|c?import\s+(\S+))", re.MULTILINE)


def test_import_contracts_are_kept():
    # Run as a module of this interpreter, so the engine under test is the one inspected.
    result = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                               "sys.exit(lint_imports_command())", "--no-cache", "--no-logo"],
        cwd=REPO, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(SRC)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 kept, 0 broken" in result.stdout, result.stdout


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: str(p.relative_to(SRC)))
def test_the_core_imports_nothing_above_it(path):
    for match in IMPORT.finditer(path.read_text()):
        module = match.group(1) or match.group(2)
        assert not module.startswith((".", "engine")), f"{path.name} imports {module}"


def test_the_core_parts_are_all_included():
    """Every part in core/ is compiled: none lies forgotten beside the build."""
    included = set()

    def walk(path):
        for name in re.findall(r'^include "([^"]+)"', path.read_text(), re.MULTILINE):
            part = (path.parent / name).resolve()
            included.add(part)
            walk(part)

    walk(SRC / "engine" / "_core.pyx")
    parts = {p.resolve() for p in (SRC / "engine" / "core").rglob("*.pxi")}
    assert parts and parts == included, sorted(str(p) for p in parts ^ included)
