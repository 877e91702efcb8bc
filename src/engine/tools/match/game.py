"""One game between two players: the move loop, the clocks, and how it ends."""
import datetime
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import chess
import chess.engine

from . import player as faults
from .adjudication import Adjudicator
from .openings import Opening
from .player import Player
from .timecontrol import Clock

# PGN Termination tag values (PGN standard, section 9.8.1).
NORMAL, ADJUDICATION, TIME_FORFEIT = "normal", "adjudication", "time forfeit"
RULES_INFRACTION, ABANDONED = "rules infraction", "abandoned"

FAULT_TERMINATION = {
    faults.ILLEGAL: RULES_INFRACTION,
    faults.PROTOCOL: RULES_INFRACTION,
    faults.TIMEOUT: TIME_FORFEIT,
    faults.CRASH: ABANDONED,
}


@dataclass
class PlayedMove:
    move: chess.Move
    comment: str


@dataclass
class GameRecord:
    opening: Opening
    moves: List[PlayedMove] = field(default_factory=list)
    result: str = "*"
    termination: str = "unterminated"
    reason: str = ""
    started: datetime.datetime = field(default_factory=datetime.datetime.now)

    def final_board(self) -> chess.Board:
        board = self.opening.board()
        for played in self.moves:
            board.push(played.move)
        return board


def _name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def _loss_for(color: chess.Color) -> str:
    return "0-1" if color == chess.WHITE else "1-0"


def rules_ending(board: chess.Board) -> Optional[Tuple[str, str]]:
    """(result, reason) when the rules end the game; draws that may be
    claimed (threefold, fifty moves) end it too, as in every match runner."""
    if board.is_checkmate():
        return _loss_for(board.turn), f"{_name(not board.turn)} mates"
    if board.is_stalemate():
        return "1/2-1/2", "Draw by stalemate"
    if board.is_insufficient_material():
        return "1/2-1/2", "Draw by insufficient mating material"
    if board.is_fifty_moves():
        return "1/2-1/2", "Draw by fifty moves rule"
    if board.is_repetition(3):
        return "1/2-1/2", "Draw by 3-fold repetition"
    return None


def _limit(player: Player, clocks: Dict[chess.Color, Optional[Clock]], color: chess.Color,
           game_id: object) -> Tuple[chess.engine.Limit, Optional[float]]:
    """The search limit for the side to move, and how long to wait for it."""
    spec = player.spec
    limit = chess.engine.Limit(depth=spec.depth, nodes=spec.nodes, clock_id=game_id)
    timeout = None
    own = clocks[color]
    # An engine without a clock (depth, nodes or st) is not shown the
    # opponent's clock either: it would start managing time it does not have.
    if own is not None:
        for side, clock in clocks.items():
            if clock is None:
                continue
            if side == chess.WHITE:
                limit.white_clock, limit.white_inc = clock.remaining, clock.control.increment
            else:
                limit.black_clock, limit.black_inc = clock.remaining, clock.control.increment
        limit.remaining_moves = own.moves_to_go()
        timeout = own.remaining + spec.time_margin
    if spec.movetime is not None:
        limit.time = spec.movetime
        timeout = spec.movetime + spec.time_margin
    return limit, timeout


def _comment(info: dict, elapsed: float, color: chess.Color) -> str:
    parts = []
    score = info.get("score")
    if score is not None:
        pov = score.pov(color)
        mate = pov.mate()
        parts.append((f"+M{mate}" if mate > 0 else f"-M{-mate}") if mate is not None
                     else f"{pov.score() / 100:+.2f}")
        if "depth" in info:
            parts[-1] += f"/{info['depth']}"
    parts.append(f"{elapsed:.3f}s")
    return " ".join(parts)


async def play_game(white: Player, black: Player, opening: Opening,
                    adjudicator: Adjudicator, game_id: object) -> GameRecord:
    record = GameRecord(opening)
    board = opening.board()
    players = {chess.WHITE: white, chess.BLACK: black}
    clocks = {c: Clock(p.spec.time_control) if p.spec.time_control else None for c, p in players.items()}

    def finish(result: str, termination: str, reason: str) -> GameRecord:
        record.result, record.termination, record.reason = result, termination, reason
        return record

    for color, player in players.items():
        try:
            await player.new_game(game_id, board.root())
        except Exception as exc:  # dead before the game began: its fault all the same
            await player.stop()
            return finish(_loss_for(color), ABANDONED,
                          f"{_name(color)}'s engine does not respond ({type(exc).__name__}: {exc})")

    while True:
        ending = rules_ending(board)
        if ending:
            return finish(ending[0], NORMAL, ending[1])
        verdict = adjudicator.verdict(board)
        if verdict:
            return finish(verdict.result, ADJUDICATION, verdict.reason)

        color = board.turn
        mover = players[color]
        limit, timeout = _limit(mover, clocks, color, game_id)
        stall_only = timeout is None   # no clock: only the stall timeout ends a hung search
        reply = await mover.play(board, limit, game_id, mover.spec.stall_timeout if stall_only else timeout)
        who = _name(color)
        if reply.fault == faults.TIMEOUT and stall_only:
            return finish(_loss_for(color), ABANDONED,
                          f"{who} stalls: no move within {mover.spec.stall_timeout:g} s (no clock; stall=)")
        if reply.fault == faults.TIMEOUT:
            return finish(_loss_for(color), TIME_FORFEIT, f"{who} loses on time ({reply.detail})")
        if reply.fault == faults.ILLEGAL:
            return finish(_loss_for(color), RULES_INFRACTION, f"{who} makes an illegal move: {reply.detail}")
        if reply.fault == faults.CRASH:
            return finish(_loss_for(color), ABANDONED, f"{who}'s engine crashed or disconnected: {reply.detail}")
        if reply.fault:
            return finish(_loss_for(color), RULES_INFRACTION, f"{who}: {reply.fault}: {reply.detail}")
        if reply.resigned:
            return finish(_loss_for(color), NORMAL, f"{who} resigns")

        margin = mover.spec.time_margin
        clock = clocks[color]
        late = (clock is not None and not clock.punch(reply.elapsed, margin)) or (
            mover.spec.movetime is not None and reply.elapsed > mover.spec.movetime + margin)
        if late:
            return finish(_loss_for(color), TIME_FORFEIT,
                          f"{who} loses on time (move took {reply.elapsed:.3f} s)")

        record.moves.append(PlayedMove(reply.move, _comment(reply.info, reply.elapsed, color)))
        board.push(reply.move)
        adjudicator.record(color, reply.info.get("score"))
