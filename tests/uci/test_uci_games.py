"""Whole games at fast time controls, with the clock kept by the test.

Self-play at 1 s + 10 ms and at 10 moves in 0.5 s, repeating (movestogo runs
down to 1 every period), and games against Fairy-Max (Debian, xboard). The
test is the arbiter: it times every move on its own clock, so a move that
comes too late is a loss on time, whatever the engine believes. For Vireo:
no illegal move, no time loss, no crash. The PGNs are kept in
tests/artifacts/.
"""
import datetime
import time
from dataclasses import dataclass
from typing import Optional

import chess
import chess.engine
import chess.pgn
import pytest

from conftest import require_engine
from uci_real_engine import ARTIFACTS, popen_fairymax, popen_uci

MAX_PLIES = 160  # then the game is adjudicated a draw: the test is about the protocol, not endings


@dataclass
class TimeControl:
    base: float                    # seconds
    inc: float = 0.0               # seconds added after each move
    moves: Optional[int] = None    # moves per period (the clock gets `base` again after them)

    def __str__(self):
        return f"{self.moves}/{self.base:g}" if self.moves else f"{self.base:g}+{self.inc:g}"


@dataclass
class Outcome:
    board: chess.Board
    result: str
    termination: str
    fault: Optional[str] = None        # what went wrong, naming the side at fault
    faulty_color: Optional[bool] = None


def play_game(white, black, tc: TimeControl) -> Outcome:
    board = chess.Board()
    engines = {chess.WHITE: white, chess.BLACK: black}
    clock = {chess.WHITE: tc.base, chess.BLACK: tc.base}
    moves_done = {chess.WHITE: 0, chess.BLACK: 0}
    game = object()
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= MAX_PLIES:
            return Outcome(board, "1/2-1/2", f"adjudicated after {MAX_PLIES} plies")
        side = board.turn
        left = {c: None if not tc.moves else tc.moves - moves_done[c] % tc.moves for c in clock}
        limit = chess.engine.Limit(white_clock=clock[chess.WHITE], black_clock=clock[chess.BLACK],
                                   white_inc=tc.inc, black_inc=tc.inc, remaining_moves=left[side])
        started = time.monotonic()
        try:
            played = engines[side].play(board, limit, game=game)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as exc:
            return _forfeit(board, side, f"engine error: {exc}")
        clock[side] -= time.monotonic() - started
        if clock[side] < 0:
            return _forfeit(board, side, f"time forfeit ({-clock[side] * 1000:.0f} ms over)")
        if played.resigned:
            return Outcome(board, "0-1" if side == chess.WHITE else "1-0", "resignation")
        if played.move is None or played.move not in board.legal_moves:
            return _forfeit(board, side, f"illegal move {played.move}")
        board.push(played.move)
        clock[side] += tc.inc
        moves_done[side] += 1
        if tc.moves and moves_done[side] % tc.moves == 0:
            clock[side] += tc.base
    return Outcome(board, board.result(claim_draw=True), "normal")


def _forfeit(board, side, why):
    return Outcome(board, "0-1" if side == chess.WHITE else "1-0", why, why, side)


def save_pgn(name, outcomes, white_names, tc):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / name, "w") as handle:
        for round_number, (outcome, (white_name, black_name)) in enumerate(zip(outcomes, white_names), 1):
            game = chess.pgn.Game.from_board(outcome.board)
            game.headers.update({"Event": f"Vireo UCI test {tc}", "Site": "tests/test_uci_games.py",
                                 "Date": datetime.date.today().strftime("%Y.%m.%d"),
                                 "Round": str(round_number), "White": white_name, "Black": black_name,
                                 "Result": outcome.result, "TimeControl": str(tc),
                                 "Termination": outcome.termination})
            print(game, file=handle, end="\n\n")


def _check_vireo_clean(outcome, vireo_colors):
    if outcome.fault is not None and outcome.faulty_color in vireo_colors:
        pytest.fail(f"Vireo ({'white' if outcome.faulty_color else 'black'}): {outcome.fault}\n"
                    f"{chess.Board().variation_san(outcome.board.move_stack)}")


@pytest.mark.parametrize("tc", [TimeControl(1.0, 0.01), TimeControl(0.5, 0.0, moves=10)], ids=str)
def test_selfplay_at_fast_time_controls(tc):
    white, black = popen_uci(), popen_uci()
    try:
        white.configure({"OwnBook": True, "BookMode": "weighted"})
        black.configure({"OwnBook": True, "BookMode": "weighted"})
        outcome = play_game(white, black, tc)
    finally:
        white.quit()
        black.quit()
    tag = str(tc).replace("/", "-per-")
    save_pgn(f"uci_selfplay_{tag}.pgn", [outcome], [("Vireo", "Vireo")], tc)
    _check_vireo_clean(outcome, {chess.WHITE, chess.BLACK})


def test_games_against_fairymax():
    fairymax_path = require_engine("fairymax")
    tc = TimeControl(2.0, 0.02)
    outcomes, names = [], []
    for vireo_color in (chess.WHITE, chess.BLACK):
        vireo, fairymax = popen_uci(), popen_fairymax(fairymax_path)
        try:
            vireo.configure({"OwnBook": True, "BookMode": "weighted"})
            pair = (vireo, fairymax) if vireo_color == chess.WHITE else (fairymax, vireo)
            outcome = play_game(*pair, tc)
        finally:
            vireo.quit()
            fairymax.quit()
        outcomes.append(outcome)
        names.append(("Vireo", "Fairy-Max") if vireo_color == chess.WHITE else ("Fairy-Max", "Vireo"))
        _check_vireo_clean(outcome, {vireo_color})
    save_pgn("uci_vs_fairymax.pgn", outcomes, names, tc)
