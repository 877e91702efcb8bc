"""Shared test helpers: where the shared data lies, and reference engines.

A test that needs a Debian engine (fairymax, stockfish, ...) skips when it is
missing locally, but CI (env CI=true) installs them, so there a missing
engine is a failure, never a silent skip.
"""
import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


def shared_data(*parts):
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        message = f"shared test data missing: {path}"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def require_engine(name):
    """Absolute path of a reference engine binary from Debian (/usr/games)."""
    path = shutil.which(name) or shutil.which(name, path="/usr/games")
    if path is None:
        message = f"reference engine {name!r} is not installed (apt-get install it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path
