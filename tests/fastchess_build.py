"""Where tests/runners/setup_fastchess.sh put fastchess: VIREO_FASTCHESS_DIR,
else its default cache folders. Missing, the tests that need it skip locally
and fail in CI, like a missing reference engine."""
import os
from pathlib import Path

from conftest import unavailable

CACHES = (Path("/var/cache/vireo/fastchess"), Path.home() / ".cache" / "vireo" / "fastchess")


def require_fastchess():
    """Absolute path of the fastchess binary."""
    folders = [Path(os.environ["VIREO_FASTCHESS_DIR"])] if os.environ.get("VIREO_FASTCHESS_DIR") else []
    for folder in folders + list(CACHES):
        if os.access(folder / "fastchess", os.X_OK):
            return str(folder / "fastchess")
    unavailable("fastchess is not built (bash tests/runners/setup_fastchess.sh builds it)")
