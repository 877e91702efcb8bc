"""analyse_many: many searches spread over native search threads in one process.

Each worker is a Python thread that owns a Searcher (a core Search with one
search thread and its own hash table) and takes the next position from a
shared queue; the search itself runs in C without the GIL, so N workers
search N positions at once. The table is cleared before each position, so a
result is what analyse() gives after clear_hash() (Threads 1), whatever
worker or order it had.
"""
from __future__ import annotations

import dataclasses
import queue
import threading
from dataclasses import dataclass
from typing import List, Optional

import chess
import chess.engine
from tqdm import tqdm

from ..uci.go import GoSettings
from ..uci.parse import GoCommand
from .inputs import go_command, item_state
from .results import analysis_lines
from .searcher import WAIT_S, Searcher


@dataclass
class Job:
    item: object              # a chess.Board or a FEN
    go: GoCommand
    chess960: bool


def checked_jobs(core, positions, limit, *, chess960: bool) -> List[Job]:
    """Every item checked before any search starts: ValueError names the
    first bad one (not a board or FEN, an invalid position, an illegal move
    in its stack, a game already over, a bad limit)."""
    items = list(positions)
    if isinstance(limit, chess.engine.Limit):
        limits = [limit] * len(items)
    else:
        try:
            limits = list(limit)
        except TypeError:
            raise ValueError(f"limit must be a chess.engine.Limit or one per position, not "
                             f"{type(limit).__name__}") from None
        if len(limits) != len(items):
            raise ValueError(f"{len(limits)} limits for {len(items)} positions")
    jobs = []
    for number, (item, one_limit) in enumerate(zip(items, limits)):
        try:
            go = go_command(one_limit)
            state = item_state(core, item, chess960)     # checks a board's type and variant too
            if not state.position.legal_moves():
                raise ValueError("the game is over: " + ("checkmate" if state.position.in_check() else "stalemate"))
        except ValueError as exc:
            raise ValueError(f"position {number}: {exc}") from None
        jobs.append(Job(item, go, item.chess960 if isinstance(item, chess.Board) else chess960))
    return jobs


def _board(job: Job) -> chess.Board:
    return job.item if isinstance(job.item, chess.Board) else chess.Board(job.item, chess960=job.chess960)


def analyse_many(core, pool: List[Searcher], jobs: List[Job], settings: GoSettings, *,
                 progress: bool) -> List[Optional[List[chess.engine.InfoDict]]]:
    results: List[Optional[List[chess.engine.InfoDict]]] = [None] * len(jobs)
    todo: "queue.SimpleQueue[int]" = queue.SimpleQueue()
    for number in range(len(jobs)):
        todo.put(number)
    done: "queue.SimpleQueue[tuple]" = queue.SimpleQueue()
    cancel = threading.Event()

    def work(searcher: Searcher) -> None:
        while not cancel.is_set():
            try:
                number = todo.get_nowait()
            except queue.Empty:
                return
            job = jobs[number]
            try:
                state = item_state(core, job.item, job.chess960)
                searcher.search.clear_hash()
                outcome = searcher.run(state, job.go, dataclasses.replace(settings, chess960=job.chess960),
                                       background=False)
                if cancel.is_set():
                    return          # stopped part-way: not a result
                done.put((number, analysis_lines(outcome.lines, _board(job), settings.multipv), None))
            except BaseException as exc:
                done.put((number, None, exc))
                return

    threads = [threading.Thread(target=work, args=(s,), name=f"vireo-analyse-{k}", daemon=True)
               for k, s in enumerate(pool)]
    for thread in threads:
        thread.start()
    finished = 0
    try:
        with tqdm(total=len(jobs), disable=not progress, unit="pos", desc="analyse") as bar:
            while finished < len(jobs):
                try:
                    number, infos, failure = done.get(timeout=WAIT_S)
                except queue.Empty:
                    if not any(t.is_alive() for t in threads) and done.empty():
                        raise RuntimeError("the analysis workers ended before every position was searched")
                    continue
                if failure is not None:
                    raise failure
                results[number] = infos
                finished += 1
                bar.update()
    except KeyboardInterrupt:
        pass                        # Ctrl-C: what is finished is returned
    finally:
        _stop(cancel, pool, threads)
    return results


def _stop(cancel: threading.Event, pool: List[Searcher], threads: List[threading.Thread]) -> None:
    """End every worker: no new position, and the running searches stopped
    (repeated, so that a search that starts meanwhile is stopped too)."""
    cancel.set()
    while any(t.is_alive() for t in threads):
        for searcher in pool:
            searcher.stop()
        for thread in threads:
            thread.join(0.01)
