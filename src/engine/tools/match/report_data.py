"""What the HTML match report shows, computed from a match's PGN files.

The games are taken in file order (the order they finished in), so the Elo
and LLR series show the estimate as the games came in. Only the headers
are read (Result, Round, Termination, PlyCount, Opening/FEN), which the
match runner writes for every game (pgn_writer.py).
"""
import math
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple


from . import stats
from .rescore import RescoreError, finished_games
from .results import POINTS, Tally
from .sprt import Sprt


@dataclass
class GameRow:
    white: str
    black: str
    result: str
    round: str
    termination: str
    plies: int
    opening: str


@dataclass
class ReportData:
    tally: Tally
    games: List[GameRow]
    sprt: Optional[Sprt]
    elo_series: List[Tuple[int, float, float, float]] = field(default_factory=list)  # game, elo, lo, hi
    llr_series: List[Tuple[int, float]] = field(default_factory=list)                # pairs, LLR
    by_opening: "OrderedDict[str, List[int]]" = field(default_factory=OrderedDict)   # W, D, L
    lengths: List[int] = field(default_factory=list)
    terminations: Counter = field(default_factory=Counter)


def read_games(paths: Sequence[str]) -> List[GameRow]:
    rows = []
    for _, h in finished_games(paths):
        plies = h.get("PlyCount", "")
        rows.append(GameRow(h.get("White", "?"), h.get("Black", "?"), h["Result"], h.get("Round", "?"),
                            h.get("Termination", "normal"), int(plies) if plies.isdigit() else 0,
                            h.get("Opening") or h.get("FEN") or "start position"))
    if not rows:
        raise RescoreError("no finished games in " + ", ".join(paths))
    return rows


def build(games: List[GameRow], first: Optional[str], sprt: Optional[Sprt]) -> ReportData:
    name = first or games[0].white
    if name not in (games[0].white, games[0].black):
        raise RescoreError(f"{name!r} does not play {games[0].white} - {games[0].black}")
    second = games[0].black if name == games[0].white else games[0].white
    data = ReportData(Tally(name, second), games, sprt)
    for number, game in enumerate(games, 1):
        if {game.white, game.black} != {name, second}:
            raise RescoreError(f"game {game.white} - {game.black} is not between {name} and {second}")
        first_is_white = game.white == name
        pair_done = data.tally.add(game.round.split(".")[0], first_is_white, game.result, game.termination)
        t = data.tally
        est = stats.trinomial(t.wins, t.draws, t.losses)
        if all(math.isfinite(x) for x in (est.elo, est.lower, est.upper)):
            data.elo_series.append((number, est.elo, est.lower, est.upper))
        if sprt and pair_done:
            data.llr_series.append((sum(t.pentanomial), sprt.llr(t.pentanomial)))
        points = POINTS[game.result] if first_is_white else 1.0 - POINTS[game.result]
        wdl = data.by_opening.setdefault(game.opening, [0, 0, 0])
        wdl[{1.0: 0, 0.5: 1, 0.0: 2}[points]] += 1
        data.lengths.append(game.plies)
        data.terminations[game.termination] += 1
    return data
