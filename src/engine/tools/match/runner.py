"""Plays the games of a match, several at a time, on one asyncio loop.

Each of the `concurrency` workers owns one process of each engine and plays
game after game with them (a process is restarted only after it failed).
Games come in pairs: both colours of one opening, one after the other in
the job list, so pairs usually run side by side.

Stopping (SPRT decision, Ctrl-C, an engine that will not start) cancels
the games in progress; they are not counted and not written, so the PGN
holds finished games only.
"""
import asyncio
import sys
import time
import traceback
from dataclasses import dataclass
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

from tqdm import tqdm

from .adjudication import Adjudicator, DrawRule, ResignRule, Tablebase
from .game import play_game
from .interrupt import ctrl_c_stops
from .openings import STANDARD_START, Opening, OpeningError, OpeningSuite
from .pgn_writer import GameLabels, PgnWriter
from .player import EngineStartError, Player
from .rescore import RescoreError, tally_from_pgn
from .results import Tally
from .spec import EngineSpec
from .sprt import Sprt
from .variant import generated_starts


@dataclass
class MatchSettings:
    engines: Tuple[EngineSpec, EngineSpec]
    games: int = 2
    concurrency: int = 1
    openings: Optional[OpeningSuite] = None
    pgn_path: Optional[str] = None
    event: str = "Vireo match"
    resign: Optional[ResignRule] = None
    draw: Optional[DrawRule] = None
    tablebase: Optional[Tablebase] = None
    sprt: Optional[Sprt] = None
    progress: bool = True
    shard: Tuple[int, int] = (1, 1)   # (k, n): play only pairs p with p % n == k - 1
    chess960: bool = False            # --variant fischerandom (variant.py)
    seed: int = 0                     # draws the Chess960 start positions when there is no opening file
    on_game: Optional[Callable[[Tally], None]] = None   # after each game is written (the live report)
    earlier: Sequence[str] = ()       # --continue: PGNs of this test's earlier games, counted first


@dataclass
class Job:
    pair: int          # 0-based opening pair
    second: bool       # the second game of the pair: colours reversed
    opening: Opening


@dataclass
class MatchOutcome:
    tally: Tally
    stop_reason: str = "completed"   # completed | sprt | interrupted | error
    error: str = ""
    seconds: float = 0.0


class Match:
    def __init__(self, settings: MatchSettings):
        self.settings = settings
        self.names = [spec.label() for spec in settings.engines]
        self.tally: Optional[Tally] = None
        self.outcome: Optional[MatchOutcome] = None
        self.bar = None
        self.writer = PgnWriter(settings.pgn_path)
        self.workers: List[asyncio.Task] = []

    def _jobs(self) -> Iterator[Job]:
        # Openings are parsed only when their pair is reached. Every shard
        # walks the same opening sequence, so pair p gets the same opening
        # whichever machine plays it.
        suite = self.settings.openings
        shard, shards = self.settings.shard
        opening = STANDARD_START
        starts = generated_starts(self.settings.seed) if self.settings.chess960 and not suite else None
        for index in range(self.settings.games):
            pair, second = divmod(index, 2)
            mine = pair % shards == shard - 1
            if not second and suite:
                opening = suite.next() if mine else suite.skip()
            elif not second and starts:
                opening = next(starts)
            if mine:
                yield Job(pair, bool(second), opening)

    def games_to_play(self) -> int:
        shard, shards = self.settings.shard
        return sum(1 for i in range(self.settings.games) if (i // 2) % shards == shard - 1)

    @property
    def stopping(self) -> bool:
        return self.outcome.stop_reason != "completed"

    def _stop(self, reason: str, error: str = "") -> None:
        if not self.stopping:
            self.outcome.stop_reason, self.outcome.error = reason, error
        for task in self.workers:
            task.cancel()

    async def _start_pair(self, players: List[Player]) -> None:
        for player in players:
            if not player.alive:
                await player.start()

    def _check_opening(self, players: List[Player], opening: Opening) -> None:
        if opening.from_standard_start:
            return
        for player, name in zip(players, self.names):
            if not player.can_set_up_positions:
                raise EngineStartError(
                    f"engine {name} cannot set up positions (xboard setboard=0), but opening "
                    f"{opening.label} starts from {opening.fen}: use PGN openings from the initial position")

    async def _worker(self, jobs: Iterator[Job], players: List[Player]) -> None:
        try:
            for job in jobs:
                # Python 3.11's wait_for can swallow a cancellation that races
                # with a result, so the flag, not only cancel(), ends the loop.
                if self.stopping:
                    break
                await self._start_pair(players)
                self._check_opening(players, job.opening)
                first, second = players
                white, black = (second, first) if job.second else (first, second)
                adjudicator = Adjudicator(self.settings.resign, self.settings.draw, self.settings.tablebase)
                record = await play_game(white, black, job.opening, adjudicator, object())
                if self.stopping:   # finished after the stop: cut short like the others
                    break
                self._record(job, record)
        except (EngineStartError, OpeningError) as exc:
            self._stop("error", str(exc))
        except Exception as exc:  # a bug of ours: stop the match, keep what was played
            traceback.print_exc()
            self._stop("error", f"internal error: {exc!r}")
        finally:
            await close_players(players)

    def _record(self, job: Job, record) -> None:
        specs, names = self.settings.engines, self.names
        w, b = (1, 0) if job.second else (0, 1)
        labels = GameLabels(self.settings.event, f"{job.pair + 1}.{2 if job.second else 1}",
                            names[w], names[b], specs[w].limit_text(), specs[b].limit_text())
        self.writer.write(record, labels)
        pair_done = self.tally.add(job.pair, not job.second, record.result, record.termination)
        if self.settings.on_game:
            self.settings.on_game(self.tally)
        self.bar.set_postfix_str(self.tally.short(), refresh=False)
        self.bar.update(1)
        if record.termination not in ("normal", "adjudication"):
            tqdm.write(f"game {labels.round} {names[w]} - {names[b]}: {record.result} {record.reason}",
                       file=sys.stderr)
        sprt = self.settings.sprt
        if sprt and pair_done and sprt.decision(sprt.llr(self.tally.pentanomial)):
            self._stop("sprt")

    async def _name_engines(self, players: List[Player]) -> None:
        """Start the first worker's engines now: bad commands fail before any
        game, and engines without name= are named after what they report."""
        await self._start_pair(players)
        for i, (spec, player) in enumerate(zip(self.settings.engines, players)):
            if not spec.name and player.engine_name:
                self.names[i] = player.engine_name
        if self.names[0] == self.names[1]:
            self.names[1] += " (2)"

    def _count_earlier_games(self) -> None:
        """--continue: the earlier games of the same test come first in the
        tally, so the SPRT stops at the first pair where all of them together
        decide (their unpaired games, if any, stay out of the pentanomial)."""
        earlier = tally_from_pgn(self.settings.earlier, self.names[0])
        self.tally.merge(earlier)
        sprt = self.settings.sprt
        if sprt and sprt.decision(sprt.llr(self.tally.pentanomial)):
            raise RescoreError("the earlier games have already decided the SPRT; nothing to play")
        tqdm.write(f"counting {earlier.games} earlier games first: {earlier.short()}", file=sys.stderr)

    async def run(self) -> MatchOutcome:
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        first_players = [Player(spec) for spec in self.settings.engines]
        self.tally = Tally(*self.names)
        self.outcome = MatchOutcome(self.tally)
        try:
            await self._name_engines(first_players)
        except EngineStartError as exc:
            await close_players(first_players)
            self.outcome.stop_reason, self.outcome.error = "error", str(exc)
            return self.outcome
        self.tally.first, self.tally.second = self.names
        if self.settings.earlier:
            try:
                self._count_earlier_games()
            except (RescoreError, ValueError) as exc:
                await close_players(first_players)
                self.outcome.stop_reason, self.outcome.error = "error", f"--continue: {exc}"
                return self.outcome

        self.bar = tqdm(total=self.games_to_play(), unit="game", disable=not self.settings.progress,
                        file=sys.stderr, dynamic_ncols=True)
        jobs = self._jobs()
        count = max(1, min(self.settings.concurrency, self.games_to_play()))
        players = [first_players] + [[Player(s) for s in self.settings.engines] for _ in range(count - 1)]
        try:
            with ctrl_c_stops(loop, lambda: self._stop("interrupted"), lambda: self.stopping):
                self.workers = [asyncio.ensure_future(self._worker(jobs, p)) for p in players]
                await asyncio.gather(*self.workers, return_exceptions=True)
        finally:
            self.bar.close()
            self.writer.close()
        self.outcome.seconds = time.monotonic() - started
        return self.outcome


async def close_players(players: List[Player]) -> None:
    """Stop every player, even when this task is being cancelled meanwhile."""
    for player in players:
        try:
            await player.stop()
        except asyncio.CancelledError:
            player.kill()


def run_match(settings: MatchSettings) -> MatchOutcome:
    return asyncio.run(Match(settings).run())

