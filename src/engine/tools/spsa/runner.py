"""The workers of an SPSA run, on one asyncio loop.

Each of the `concurrency` workers owns two processes of the engine, one for
theta + c*delta and one for theta - c*delta, and plays game pair after game
pair with them: before a pair it sets both engines' options (setoption;
python-chess sends only what changed), then plays the pair's opening with
each colour. Workers update the shared theta as their pairs finish, as
fishtest's and OpenBench's workers do: a pair started before another
finished simply used the theta of its start.
"""
import asyncio
import random
import signal
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Dict, List, Optional, Tuple

from tqdm import tqdm

from ..match.adjudication import Adjudicator, DrawRule, ResignRule
from ..match.game import play_game
from ..match.openings import STANDARD_START, OpeningSuite
from ..match.player import EngineStartError, Player
from ..match.runner import close_players
from ..match.spec import EngineSpec
from .params import Param
from .schedule import Schedule
from .state import SpsaState


@dataclass
class SpsaSettings:
    engine: EngineSpec
    state_path: str
    concurrency: int = 1
    openings: Optional[OpeningSuite] = None
    resign: Optional[ResignRule] = None
    draw: Optional[DrawRule] = None
    seed: int = 0
    progress: bool = True
    schedule: Optional[Schedule] = None   # default: Schedule(state.iterations)


def perturbation(seed: int, pair: int, count: int) -> List[int]:
    """delta in {-1, +1} for each parameter; the same for the same seed and pair,
    so a resumed run nudges as the first one would have."""
    rng = random.Random(f"spsa:{seed}:{pair}")
    return [rng.choice((-1, 1)) for _ in range(count)]


def nudged(params: List[Param], delta: List[int], schedule: Schedule, pair: int, sign: int) -> Dict[str, int]:
    """The engine's option values for theta + sign * c_k * delta."""
    return {p.name: p.engine_value(p.value + sign * schedule.c_k(p.c_end, pair) * d)
            for p, d in zip(params, delta)}


def apply_result(params: List[Param], delta: List[int], schedule: Schedule, pair: int, result: float) -> None:
    """theta += a_k / c_k * result * delta, kept inside each parameter's bounds."""
    for p, d in zip(params, delta):
        p.value = p.clip(p.value + schedule.step(p.c_end, p.r_end, pair) * result * d)


def _points(result: str, plus_white: bool) -> Optional[float]:
    """The theta + c*delta side's points in one game."""
    white = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(result)
    if white is None:
        return None
    return white if plus_white else 1.0 - white


class SpsaRun:
    def __init__(self, settings: SpsaSettings, state: SpsaState):
        self.settings = settings
        self.state = state
        self.schedule = settings.schedule or Schedule(state.iterations)
        self.assigned = state.done      # pairs handed to workers (in progress or done)
        self.stop_reason = "completed"  # completed | interrupted | error
        self.error = ""
        self.workers: List[asyncio.Task] = []
        self.bar = None
        self.seconds = 0.0
        if settings.openings:          # pair k gets the k-th opening, resumed or not
            for _ in range(state.done):
                settings.openings.skip()

    def _stop(self, reason: str, error: str = "") -> None:
        if self.stop_reason == "completed":
            self.stop_reason, self.error = reason, error
        for task in self.workers:
            task.cancel()

    async def _ready(self, player: Player, values: Dict[str, int]) -> None:
        """Alive (a fault stops an engine; a fresh one plays on) and set to `values`."""
        if not player.alive:
            await player.start()
        await player.protocol.configure(values)

    async def _pair(self, players: List[Player], pair: int) -> Tuple[List[int], List[Optional[float]]]:
        params = self.state.params
        delta = perturbation(self.settings.seed, pair, len(params))
        opening = self.settings.openings.next() if self.settings.openings else STANDARD_START
        values = [nudged(params, delta, self.schedule, pair, sign) for sign in (+1, -1)]
        points = []
        for plus_white in (True, False):
            for player, wanted in zip(players, values):
                await self._ready(player, wanted)
            plus, minus = players
            white, black = (plus, minus) if plus_white else (minus, plus)
            adjudicator = Adjudicator(self.settings.resign, self.settings.draw, None)
            record = await play_game(white, black, opening, adjudicator, object())
            if record.termination not in ("normal", "adjudication"):
                tqdm.write(f"pair {pair + 1}: {record.result} {record.reason}", file=sys.stderr)
            points.append(_points(record.result, plus_white))
        return delta, points

    async def _worker(self, players: List[Player]) -> None:
        try:
            while self.stop_reason == "completed" and self.assigned < self.state.iterations:
                pair = self.assigned
                self.assigned += 1
                delta, points = await self._pair(players, pair)
                if self.stop_reason != "completed":
                    break
                if None in points:
                    raise RuntimeError(f"pair {pair + 1} has an unfinished game")
                apply_result(self.state.params, delta, self.schedule, pair, sum(points) * 2 - 2)
                self.state.record(points.count(1.0), points.count(0.5), points.count(0.0))
                self.state.save(self.settings.state_path)
                self.bar.set_postfix_str(f"+{self.state.wins} ={self.state.draws} -{self.state.losses}",
                                         refresh=False)
                self.bar.update(1)
        except EngineStartError as exc:
            self._stop("error", str(exc))
        except Exception as exc:  # a bug of ours: stop, keep the state of the finished pairs
            traceback.print_exc()
            self._stop("error", f"internal error: {exc!r}")
        finally:
            await close_players(players)

    async def run(self) -> str:
        loop = asyncio.get_running_loop()

        def interrupted():
            loop.remove_signal_handler(signal.SIGINT)
            self._stop("interrupted")

        try:
            loop.add_signal_handler(signal.SIGINT, interrupted)
        except (NotImplementedError, RuntimeError):
            pass
        loop.set_exception_handler(lambda loop, context: None if self.stop_reason != "completed"
                                   else loop.default_exception_handler(context))
        left = self.state.iterations - self.state.done
        self.bar = tqdm(total=self.state.iterations, initial=self.state.done, unit="pair",
                        disable=not self.settings.progress, file=sys.stderr, dynamic_ncols=True)
        count = max(1, min(self.settings.concurrency, left))
        players = [[Player(self.settings.engine), Player(self.settings.engine)] for _ in range(count)]
        try:
            for pair in players:   # a bad command fails before any game
                for player in pair:
                    await player.start()
        except EngineStartError as exc:
            for pair in players:
                await close_players(pair)
            self.bar.close()
            self.stop_reason, self.error = "error", str(exc)
            return self.stop_reason
        self.workers = [asyncio.ensure_future(self._worker(p)) for p in players]
        try:
            await asyncio.gather(*self.workers, return_exceptions=True)
        finally:
            try:
                loop.remove_signal_handler(signal.SIGINT)
            except (NotImplementedError, RuntimeError):
                pass
            self.bar.close()
        return self.stop_reason


def run_spsa(settings: SpsaSettings, state: SpsaState) -> SpsaRun:
    spsa = SpsaRun(settings, state)
    started = time.monotonic()
    asyncio.run(spsa.run())
    spsa.seconds = time.monotonic() - started
    return spsa
