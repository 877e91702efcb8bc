"""The run's state in one JSON file, rewritten after every game pair.

A killed run loses only the pairs in progress: started again with the same
--state file it goes on from the last finished pair, with theta as it was
(the file's parameters win over the command line's starts; what defines
the run, the parameters' names and gains and the length, must agree).
A name ending in .xz or .gz is read and rewritten through that compression
(a finished run kept in benchmarks/results/ is stored as .json.xz).
"""
import json
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from ..textfile import READ_ERRORS, open_text
from .params import Param, ParamError

VERSION = 1


@dataclass
class SpsaState:
    iterations: int                   # the run's length N (the schedule depends on it)
    params: List[Param]
    start: Dict[str, float] = field(default_factory=dict)
    done: int = 0                     # finished game pairs
    wins: int = 0                     # games won, drawn, lost by the theta + c*delta side
    draws: int = 0
    losses: int = 0
    history: List[list] = field(default_factory=list)   # [pairs done, theta...] after each pair

    def __post_init__(self):
        if not self.start:
            self.start = {p.name: p.value for p in self.params}

    def record(self, wins: int, draws: int, losses: int) -> None:
        self.done += 1
        self.wins, self.draws, self.losses = self.wins + wins, self.draws + draws, self.losses + losses
        self.history.append([self.done] + [round(p.value, 3) for p in self.params])

    def to_json(self) -> dict:
        return {
            "version": VERSION, "iterations": self.iterations, "done": self.done,
            "games": {"wins": self.wins, "draws": self.draws, "losses": self.losses},
            "params": [{"name": p.name, "value": p.value, "start": self.start[p.name], "min": p.min,
                        "max": p.max, "c_end": p.c_end, "r_end": p.r_end} for p in self.params],
            "history_columns": ["pairs"] + [p.name for p in self.params],
            "history": self.history,
        }

    def save(self, path: str) -> None:
        # Write beside and rename: a kill mid-write never leaves half a file.
        # The temporary name keeps the ending, which chooses the compression.
        folder, name = os.path.split(path)
        temporary = os.path.join(folder, f".partial-{name}")
        with open_text(temporary, "w") as handle:
            json.dump(self.to_json(), handle, indent=1)
        os.replace(temporary, path)


def load(path: str, iterations: int, params: List[Param]) -> Optional[SpsaState]:
    """The saved state of this run, or None when the file does not exist yet."""
    if not os.path.exists(path):
        return None
    try:
        with open_text(path) as handle:
            data = json.load(handle)
        saved = data["params"]
        games = data["games"]
        names = [p["name"] for p in saved]
    except READ_ERRORS + (ValueError, KeyError, TypeError) as exc:
        raise ParamError(f"--state {path}: not a vireo spsa state file ({exc})") from None
    if data.get("version") != VERSION:
        raise ParamError(f"--state {path}: version {data.get('version')!r}, expected {VERSION}")
    if names != [p.name for p in params]:
        raise ParamError(f"--state {path} tunes {', '.join(names)}, not {', '.join(p.name for p in params)}")
    if data["iterations"] != iterations:
        raise ParamError(f"--state {path} is a run of {data['iterations']} pairs, not --iterations {iterations}")
    restored = []
    for p in saved:
        restored.append(Param(p["name"], float(p["value"]), int(p["min"]), int(p["max"]),
                              float(p["c_end"]), float(p["r_end"])))
    state = SpsaState(iterations, restored, {p["name"]: float(p["start"]) for p in saved},
                      int(data["done"]), int(games["wins"]), int(games["draws"]), int(games["losses"]),
                      list(data.get("history", [])))
    return state
