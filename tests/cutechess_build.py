"""Where tests/gui/setup.sh put the Cute Chess build (GUI and cutechess-cli):
VIREO_CUTECHESS_DIR, else its default cache folders. Missing, the tests that
need it skip locally and fail in CI, like a missing reference engine."""
import os
from pathlib import Path

from conftest import unavailable

CACHES = (Path("/var/cache/vireo/cutechess"), Path.home() / ".cache" / "vireo" / "cutechess")


def require_cutechess(program):
    """Absolute path of `cutechess` (the GUI) or `cutechess-cli`."""
    folders = [Path(os.environ["VIREO_CUTECHESS_DIR"])] if os.environ.get("VIREO_CUTECHESS_DIR") else []
    for folder in folders + list(CACHES):
        if os.access(folder / program, os.X_OK):
            return str(folder / program)
    unavailable(f"{program} is not built (bash tests/gui/setup.sh builds it)")
