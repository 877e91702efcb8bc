"""One engine process that analyses every position of a game.

The engine is started and driven by the match runner's Player (spec words,
process group, faults, polite quit); here it only gets analysis settings:
the opening book off (an analysis must search, never play from a book), WDL
on where the engine offers it and the user did not say otherwise.
"""
import asyncio
from dataclasses import dataclass, field
from typing import List, Optional

import chess
import chess.engine

from ..match.player import EngineStartError, Player
from ..match.spec import EngineSpec
from .games import GameInput, move_number

INFO = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE | chess.engine.INFO_PV


@dataclass
class PositionEval:
    """The engine's view of one position (the side to move's scores are kept as PovScore)."""
    score: chess.engine.PovScore
    depth: Optional[int] = None
    wdl: Optional[chess.engine.PovWdl] = None
    lines: List[List[chess.Move]] = field(default_factory=list)   # principal variations, best first

    @property
    def best(self) -> Optional[chess.Move]:
        return self.lines[0][0] if self.lines and self.lines[0] else None


class AnalysisError(RuntimeError):
    """The engine failed on a position: the message names the game and the move."""

    def __init__(self, message: str, start_failed: bool = False):
        super().__init__(message)
        self.start_failed = start_failed   # it could not even be started


def final_eval(board: chess.Board) -> PositionEval:
    """A finished game needs no search: mated, or drawn by the rules."""
    outcome = board.outcome()
    if outcome is not None and outcome.winner is not None:
        return PositionEval(chess.engine.PovScore(chess.engine.Mate(0), board.turn))
    return PositionEval(chess.engine.PovScore(chess.engine.Cp(0), board.turn))


class Analyser:
    def __init__(self, spec: EngineSpec, limit: chess.engine.Limit, multipv: int):
        self.spec, self.limit, self.multipv = spec, limit, multipv
        self.player = Player(spec)
        # No answer this long means a hung engine: the limit's own time, else the spec's stall=.
        self.timeout = (limit.time + 30.0) if limit.time else spec.stall_timeout

    @property
    def name(self) -> str:
        return self.spec.name or self.player.engine_name or self.spec.label()

    async def start(self) -> None:
        if self.player.alive:
            return
        if self.spec.protocol != "uci":
            raise EngineStartError(f"engine {self.spec.label()}: analysis needs a UCI engine (proto=uci)")
        await self.player.start()
        protocol = self.player.protocol
        settings = {}
        if "OwnBook" in protocol.options:
            settings["OwnBook"] = False
        if "UCI_ShowWDL" in protocol.options and "UCI_ShowWDL" not in self.spec.options:
            settings["UCI_ShowWDL"] = True
        if settings:
            await protocol.configure(settings)

    async def analyse_game(self, item: GameInput) -> List[PositionEval]:
        """The evaluation of the start position and of the position after each move."""
        board = item.game.board()
        game_id = object()   # a new id: python-chess sends ucinewgame before the first search
        evals = [await self._position(board, item, game_id, None)]
        for move in item.moves():
            number_and_move = f"{move_number(board)} {board.san(move)}"
            board.push(move)
            evals.append(await self._position(board, item, game_id, number_and_move))
        return evals

    async def _position(self, board: chess.Board, item: GameInput, game_id: object,
                        after: Optional[str]) -> PositionEval:
        if board.is_game_over():
            return final_eval(board)
        where = f"{item.label}, after {after}" if after else f"{item.label}, start position"
        name = self.name   # before a failure stops the process (and forgets what it said its name was)
        try:
            await self.start()
            infos = await asyncio.wait_for(
                self.player.protocol.analyse(board, self.limit, multipv=self.multipv, game=game_id, info=INFO),
                self.timeout)
        except EngineStartError as exc:
            raise AnalysisError(f"{where}: {exc}", start_failed=True) from None
        except asyncio.TimeoutError:
            await self.player.stop()
            raise AnalysisError(f"{where}: engine {name} gave no result within {self.timeout:g} s") from None
        except chess.engine.EngineError as exc:   # crashed, or broke the protocol
            await self.player.stop()
            raise AnalysisError(f"{where}: engine {name} failed: {exc or type(exc).__name__}") from None
        first = infos[0] if infos else {}
        if "score" not in first:
            raise AnalysisError(f"{where}: engine {name} gave no score")
        lines = [info.get("pv", []) for info in infos if info.get("pv")]
        return PositionEval(first["score"], first.get("depth"), first.get("wdl"), lines)

    async def stop(self) -> None:
        try:
            await self.player.stop()
        except asyncio.CancelledError:
            self.player.kill()
