"""Analyses the games, several at a time, on one asyncio loop.

Each of the `concurrency` workers owns one engine process and takes game
after game. A game the engine fails on (crash, hang, protocol error) is
reported with its move and skipped; the engine is restarted for the next
game. Ctrl-C stops the games in progress; the finished ones are kept.
"""
import asyncio
import sys
import traceback
from dataclasses import dataclass, field
from typing import Dict, Iterator, List

import chess.engine
from tqdm import tqdm

from ..match.interrupt import ctrl_c_stops
from ..match.spec import EngineSpec
from .analyser import AnalysisError, Analyser
from .games import GameInput
from .review import GameReview, review


@dataclass
class AnalysisSettings:
    engine: EngineSpec
    limit: chess.engine.Limit
    multipv: int = 1
    concurrency: int = 1
    progress: bool = True


@dataclass
class Outcome:
    reviews: Dict[int, GameReview] = field(default_factory=dict)   # by GameInput.index
    failures: List[str] = field(default_factory=list)
    interrupted: bool = False
    engine_failed: bool = False        # the engine could not be started: the games left were not tried
    engine_name: str = ""

    def in_order(self) -> List[GameReview]:
        return [self.reviews[i] for i in sorted(self.reviews)]


class Analysis:
    def __init__(self, settings: AnalysisSettings, games: List[GameInput]):
        self.settings, self.games = settings, games
        self.outcome = Outcome()
        self.workers: List[asyncio.Task] = []
        self.stopping = False
        self.bar = None

    def _stop(self) -> None:
        self.stopping = True
        for task in self.workers:
            task.cancel()

    async def _worker(self, jobs: Iterator[GameInput], analyser: Analyser) -> None:
        try:
            for item in jobs:
                if self.stopping:
                    break
                try:
                    evals = await analyser.analyse_game(item)
                except AnalysisError as exc:
                    self.outcome.failures.append(f"{exc}; game not analysed")
                    tqdm.write(f"vireo analyse: {exc}", file=sys.stderr)
                    if exc.start_failed:   # the engine does not even start: no later game could be analysed
                        self.outcome.engine_failed = True
                        self._stop()
                    continue
                finally:
                    self.bar.update(1)
                if self.stopping:
                    break
                self.outcome.reviews[item.index] = review(item, evals)
                self.outcome.engine_name = self.outcome.engine_name or analyser.name
        except Exception as exc:   # a bug of ours: stop, keep what was done
            traceback.print_exc()
            self.outcome.failures.append(f"internal error: {exc!r}")
            self._stop()
        finally:
            await analyser.stop()

    def _interrupted(self) -> None:
        self.outcome.interrupted = True
        self._stop()

    async def run(self) -> Outcome:
        s = self.settings
        self.bar = tqdm(total=len(self.games), unit="game", disable=not s.progress, file=sys.stderr,
                        dynamic_ncols=True)
        jobs = iter(self.games)
        count = max(1, min(s.concurrency, len(self.games)))
        try:
            with ctrl_c_stops(asyncio.get_running_loop(), self._interrupted, lambda: self.stopping):
                self.workers = [asyncio.ensure_future(self._worker(jobs, Analyser(s.engine, s.limit, s.multipv)))
                                for _ in range(count)]
                await asyncio.gather(*self.workers, return_exceptions=True)
        finally:
            self.bar.close()
        return self.outcome


def analyse_games(settings: AnalysisSettings, games: List[GameInput]) -> Outcome:
    return asyncio.run(Analysis(settings, games).run())

