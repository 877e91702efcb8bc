"""Shared test helpers: where the shared data lies, and reference engines.

A test that needs a Debian engine (fairymax, stockfish, ...) or the shared
data skips when it is missing locally, but CI installs them, so there a
missing one is a failure, never a silent skip. One rule, here only
(`unavailable`): any non-empty CI variable (CI=true, CI=1) means CI.
The tests' helper modules (uci_real_engine.py, ...) sit beside this file,
which pytest puts on sys.path, so tests in every sub-folder import them.
"""
import gzip
import itertools
import os
import shutil
import sys
from pathlib import Path

import chess.pgn
import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"


def running_in_ci() -> bool:
    return bool(os.environ.get("CI"))


def unavailable(message):
    """Something a test needs is missing: a failure in CI, a skip elsewhere."""
    if running_in_ci():
        pytest.fail(message)
    pytest.skip(message)


def shared_data(*parts):
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        unavailable(f"shared test data missing: {path}")
    return path


def require_engine(name):
    """Absolute path of a reference engine binary from Debian (/usr/games)."""
    path = shutil.which(name) or shutil.which(name, path="/usr/games")
    if path is None:
        unavailable(f"reference engine {name!r} is not installed (apt-get install it)")
    return path


def require_program(name, package):
    """Absolute path of a program from a Debian package (Xvfb, xdotool, xboard, ...)."""
    path = shutil.which(name) or shutil.which(name, path="/usr/games")
    if path is None:
        unavailable(f"{name} is not installed (apt-get install {package}, or run tests/gui/setup.sh as root)")
    return path


def gui_path():
    """PATH for a GUI that starts `vireo` by name, as a user's does: the scripts
    folder of this Python (where `pip install -e .` put `vireo`), Debian's
    /usr/games, then the rest."""
    path = os.pathsep.join([os.path.dirname(sys.executable), "/usr/games", os.environ.get("PATH", "")])
    if shutil.which("vireo", path=path) is None:
        unavailable("the `vireo` command is not installed (pip install -e .)")
    return path


@pytest.fixture
def raw():
    """A real engine process past the uci/isready handshake, spoken to line by
    line (uci_real_engine.RawEngine); a test module may define its own."""
    from uci_real_engine import RawEngine
    engine = RawEngine()
    engine.handshake()
    yield engine
    engine.close()


def read_games(path):
    """Every game of a PGN file, as python-chess reads them (errors kept on each game)."""
    games = []
    with open(path) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return games


# -- evaluation and tuning tests: a sample of the labelled positions ---------

@pytest.fixture(scope="module")
def data_lines():
    """The first 3000 `FEN;score;result` lines of the shared tuning data."""
    path = shared_data("tuning", "selfplay-0.txt.gz")
    with gzip.open(path, "rt") as handle:
        return [line.strip() for line in itertools.islice(handle, 3000)]


@pytest.fixture(scope="module")
def data_fens(data_lines):
    return [line.split(";")[0] for line in data_lines]


@pytest.fixture
def restore_weights():
    """Put the compiled-in evaluation weights back after a test changes them."""
    yield
    from engine import _core
    _core.reset_eval_weights()


def white_view(fen):
    """Static evaluation of fen in centipawns from white's point of view."""
    from engine._core import Position, static_eval
    p = Position(fen)
    return static_eval(p) if p.turn else -static_eval(p)
