"""The NNUE network behind the `EvalFile` and `Use NNUE` options.

The core holds one network (engine._core.load_network); this slot decides
when to load which file and reports every problem as `info string`. A file
that cannot be loaded (missing, truncated, corrupt, another format) leaves
the network already loaded in place, and `Use NNUE` without any network
keeps the classical evaluation: the engine always keeps playing.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

Say = Callable[[str], None]

# The network shipped in the package data (docs/nnue.md says how it was made).
# `Use NNUE` is on by default: the shipped network won its SPRT [0, 5] against
# the classical evaluation at 10+0.1 (docs/results.md, "NNUE against the classical
# evaluation"); the classical evaluation stays one option away.
SHIPPED_NETWORK = Path(__file__).resolve().parents[1] / "data" / "vireo.nnue"


def resolve_network_path(option: str) -> Path:
    """EvalFile's value as a path: empty means the shipped network."""
    option = (option or "").strip()
    return SHIPPED_NETWORK if not option else Path(option).expanduser()


class NetworkSlot:
    def __init__(self, say: Say, core, search):
        self._say = say
        self._core = core
        self._search = search
        self.loaded_option: Optional[str] = None   # the EvalFile value of the loaded network

    def load(self, option: str) -> bool:
        """Load the network EvalFile names; on failure say why and keep the old one."""
        path = resolve_network_path(option)
        kept = (f"kept {self._core.network_info()['path']}" if self._core.network_info()
                else "no network loaded")
        if not option.strip() and not path.exists():
            self._say(f"EvalFile: no network is shipped with this build ({path.name}); "
                      f"set EvalFile to a network file; {kept}")
            return False
        try:
            info = self._core.load_network(str(path))
        except (ValueError, RuntimeError, MemoryError) as exc:
            self._say(f"EvalFile {path}: {exc}; {kept}")
            return False
        self.loaded_option = option
        buckets = f", {info['buckets']} output buckets" if info["buckets"] > 1 else ""
        if info.get("king_buckets"):
            buckets += f", {info['king_buckets']} king bucket{'s' if info['king_buckets'] > 1 else ''}"
        code = f"; {self._core.simd_path()} code" if hasattr(self._core, "simd_path") else ""
        self._say(f"EvalFile: loaded {info['path']} ({info['hidden']} neurons, {info['activation']}{buckets}{code})")
        return True

    def apply(self, eval_file: str, use_nnue: bool) -> bool:
        """Bring the core in line with the options (only while no search runs).
        Returns the `Use NNUE` value that holds afterwards."""
        if eval_file != self.loaded_option and (use_nnue or eval_file.strip()):
            self.load(eval_file)
        if use_nnue and self._core.network_info() is None:
            self._say("Use NNUE: no network loaded; using the classical evaluation")
            use_nnue = False
        self._search.set_option("use_nnue", bool(use_nnue))
        return use_nnue
