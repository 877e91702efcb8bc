"""A datagen run: which games this shard plays, in how many processes, and
the output they go to.

Game g (0, 1, 2, ... over the whole run) draws all its randomness from
(seed, g) alone and starts from an empty hash table, so it is the same game
whichever machine, shard, worker or resumed run plays it. Shard K/N plays the
games g with g % N == K - 1. Workers finish games out of order; each game is
written whole when it ends, and the journal records it (journal.py).
"""
from __future__ import annotations

import multiprocessing
import random
import signal
import time
from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Tuple

from tqdm import tqdm

from .adjudication import AdjudicationRules, Adjudicator
from .game import GameRecord, GameSettings, play_game
from ..games.files import is_games_file, sha256
from .journal import GamesJournal, Journal, JournalError
from .starts import StartSettings, start_board


@dataclass(frozen=True)
class RunConfig:
    games: int = 1000
    seed: int = 0
    shard: int = 1                # K of K/N, 1-based
    shards: int = 1               # N
    workers: int = 1
    hash_mb: int = 16
    game: GameSettings = field(default_factory=GameSettings)
    starts: StartSettings = field(default_factory=StartSettings)
    rules: AdjudicationRules = field(default_factory=AdjudicationRules)
    syzygy: Optional[str] = None
    eval_file: Optional[str] = None

    def describe(self) -> str:
        """What must match for a resume to continue the same run."""
        openings = len(self.starts.openings)
        return (f"seed={self.seed} shard={self.shard}/{self.shards} nodes={self.game.nodes} "
                f"skip={self.game.skip_plies} random={self.starts.random_plies}/{self.starts.opening_random_plies} "
                f"openings={openings} chess960={int(self.starts.chess960)} hash={self.hash_mb} "
                f"syzygy={self.syzygy or '-'} eval={self.eval_file or '-'} rules={self.rules}"
                # runs before the completed-iteration rule said nothing: they resume with --scores last
                + ("" if self.game.scores == "last" else f" scores={self.game.scores}"))


def game_rng(seed: int, game: int) -> random.Random:
    return random.Random(f"vireo-datagen:{seed}:{game}")


def shard_games(config: RunConfig, games: Optional[int] = None) -> List[int]:
    """This shard's games among the run's first `games` (default: all of the run)."""
    return list(range(config.shard - 1, config.games if games is None else games, config.shards))


def missing_below_last(config: RunConfig, done) -> Tuple[int, List[int]]:
    """(1 + the highest game done, this shard's games below it not done yet).
    Workers finish out of order, so a stopped run may leave a few such gaps;
    `--games` at that number plays just them, and the output then holds
    every game of the shard below it: a count that names the data exactly."""
    top = max(done) + 1 if done else 0
    return top, [g for g in shard_games(config, top) if g not in done]


# -- one process's state: its own Search, opened once -------------------------

_worker: dict = {}


def make_search(config: RunConfig):
    from engine import _core
    search = _core.Search()
    search.set_hash(config.hash_mb)
    if config.eval_file:
        _core.load_network(config.eval_file)   # ValueError names a bad file
        search.set_option("use_nnue", True)
    tablebases = None
    if config.syzygy:
        from engine.syzygy.tables import Tablebases
        tablebases = Tablebases.open(config.syzygy)
    return search, tablebases


def preflight(config: RunConfig) -> None:
    """Opens what the workers will open, here, so that a bad table path or
    network fails once with its message (a worker's initializer that raises
    would only be restarted by the pool, again and again)."""
    _search, tablebases = make_search(config)
    if tablebases is not None:
        tablebases.close()


def init_worker(config: RunConfig) -> None:
    _worker["config"] = config
    _worker["search"], _worker["tablebases"] = make_search(config)


def play(game: int) -> Tuple[int, GameRecord]:
    config: RunConfig = _worker["config"]
    rng = game_rng(config.seed, game)
    board = None
    while board is None:
        board = start_board(config.starts, rng)
    adjudicator = Adjudicator(config.rules, _worker["tablebases"])
    return game, play_game(_worker["search"], board, config.game, adjudicator)


def init_pool_worker(config: RunConfig) -> None:
    # The parent may turn SIGTERM into KeyboardInterrupt (cli.py); a worker
    # must die of it, as Pool.terminate expects. It was forked with SIGTERM
    # blocked (played_games), so a SIGTERM sent before this line waits here.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    init_worker(config)


def played_games(config: RunConfig, todo: List[int]) -> Iterator[Tuple[int, GameRecord]]:
    if config.workers == 1:
        yield from map(play, todo)     # init_worker ran in run(), before the journal
        return
    # fork: the workers inherit the loaded modules, and start at once
    # Blocked while forking: a worker that took SIGTERM with the parent's
    # handler still in place would live on, and Pool.terminate wait for it
    # forever (a run with nothing left to play hung so). The pool's threads
    # keep it blocked, which leaves it to the main thread.
    unblocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        pool = multiprocessing.get_context("fork").Pool(config.workers, init_pool_worker, (config,))
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, unblocked)
    with pool:
        yield from pool.imap_unordered(play, todo, chunksize=1)


def open_journal(config: RunConfig, output) -> Journal:
    """A kept game file for a name ending .games.xz, Marlinformat records otherwise."""
    kind = GamesJournal if is_games_file(output) else Journal
    return kind(output, config.describe())


def check_network(config: RunConfig, journal: Journal) -> None:
    """The settings name the network by its path; its SHA-256 goes to the
    journal too, so that a resume with another file at that path (a newer
    network shipped meanwhile) is refused rather than mixing two players."""
    if not config.eval_file:
        return
    digest = sha256(config.eval_file)
    recorded = [note.split()[1] for note in journal.notes if note.startswith("network-sha256 ")]
    if recorded and recorded[0] != digest:
        journal.close()
        raise JournalError(f"{config.eval_file} has SHA-256 {digest}, but this run was played with "
                           f"{recorded[0]}: give the same network to resume")
    if not recorded:
        journal.note(f"network-sha256 {digest}")


def run(config: RunConfig, output, progress: bool = True, command: Optional[str] = None) -> Journal:
    """Play the games the journal lacks. A KeyboardInterrupt stops the run
    with what is written kept, and the journal returned says `stopped`.
    command, when given, goes to the journal as a comment (the manifest's)."""
    if config.workers > 1:
        preflight(config)
    else:
        init_worker(config)
    journal = open_journal(config, output)
    check_network(config, journal)
    if command:
        journal.note("command " + command)
    todo = [g for g in shard_games(config) if g not in journal.done]
    start, made = time.monotonic(), 0
    bar = tqdm(total=len(todo), unit="game", disable=not progress, dynamic_ncols=True)
    try:
        for game, record in played_games(config, todo):
            journal.append(game, record)
            made += len(record.records)
            rate = made / max(time.monotonic() - start, 1e-9)
            bar.set_postfix_str(f"{journal.records} positions, {rate:.0f} pos/s", refresh=False)
            bar.update(1)
    except KeyboardInterrupt:
        journal.stopped = True
    finally:
        bar.close()
        journal.close()
    return journal
