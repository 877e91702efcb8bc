"""One engine process, driven through python-chess's asyncio engine API.

The player times each move itself and turns every way an engine can fail
(illegal move, crash, disconnect, no answer, protocol error) into a named
fault, so the game can be scored against the engine at fault instead of
the runner crashing.
"""
import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Optional

import chess
import chess.engine

from .spec import EngineSpec

START_TIMEOUT = 30.0   # seconds an engine may take to start and finish its handshake
QUIT_TIMEOUT = 2.0     # seconds granted to quit before the process is killed
INFO = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE

# Fault kinds: each maps to a PGN Termination value in game.py.
ILLEGAL, CRASH, TIMEOUT, PROTOCOL = "illegal move", "crash", "time forfeit", "protocol error"


class _DropChatter(logging.Filter):
    """Hide python-chess's warning for every line it does not understand:
    chatty xboard engines (Phalanx: "tellics whisper ...") would flood the
    terminal. Real problems (engine stderr, timeouts) still get through."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("%s: Unexpected engine output")


_CHATTER_FILTER = _DropChatter()


def quiet_engine_chatter() -> None:
    logging.getLogger("chess.engine").addFilter(_CHATTER_FILTER)   # adding twice is a no-op


class EngineStartError(RuntimeError):
    """An engine that cannot be started or configured."""


class _Features(dict):
    """xboard features, accepting engines that declare ``setboard=0``.

    python-chess refuses such engines (Fairy-Max is one), although they can
    play every game that starts from the standard position: the moves are then
    sent as moves. We remember the engine's real answer and store 1 so the
    handshake succeeds; the runner only gives these engines standard-start
    games (see Player.can_set_up_positions).
    """

    real_setboard = True

    def __setitem__(self, key, value):
        if key == "setboard":
            self.real_setboard = bool(value)
            value = 1
        super().__setitem__(key, value)


class LenientXBoardProtocol(chess.engine.XBoardProtocol):
    def __init__(self) -> None:
        super().__init__()
        self.features = _Features()


class TimedUciProtocol(chess.engine.UciProtocol):
    """UCI as python-chess speaks it, with a GUI's stopwatch: from writing
    `go` to reading `bestmove`, the two lines where cutechess-cli starts and
    stops an engine's clock. Timed around the whole play() instead, the
    runner's own work (asyncio scheduling, python-chess's bookkeeping before
    `go` and after `bestmove`) was charged to the engine: 3-6 ms a move on a
    2-core machine, more than a 1 ms answer costs the engine itself
    (benchmarks/long_run.py, docs/results.md "Long runs")."""

    def __init__(self) -> None:
        super().__init__()
        self.go_sent: Optional[float] = None
        self.bestmove_read: Optional[float] = None

    def send_line(self, line: str) -> None:
        super().send_line(line)
        words = line.split()
        if words[:1] == ["go"] and "ponder" not in words:
            self.go_sent, self.bestmove_read = time.monotonic(), None

    def line_received(self, line: str) -> None:
        if self.go_sent is not None and self.bestmove_read is None and line.startswith("bestmove"):
            self.bestmove_read = time.monotonic()
        super().line_received(line)

    def stopwatch(self, since: float) -> Optional[float]:
        """Seconds from the last `go` written after `since` to its bestmove; None if none."""
        if self.go_sent is None or self.bestmove_read is None or self.go_sent < since:
            return None
        return self.bestmove_read - self.go_sent


@dataclass
class Reply:
    """What an engine answered to one `go`."""
    move: Optional[chess.Move]
    elapsed: float
    info: dict = field(default_factory=dict)
    resigned: bool = False
    fault: Optional[str] = None   # one of the fault kinds above, None when all went well
    detail: str = ""


def _option_value(value: str):
    # UCI check options want true/false; accept any capitalisation.
    return value.lower() if value.lower() in ("true", "false") else value


class Player:
    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.transport = None
        self.protocol: Optional[chess.engine.Protocol] = None

    @property
    def alive(self) -> bool:
        return self.transport is not None and self.transport.get_returncode() is None

    @property
    def engine_name(self) -> Optional[str]:
        return self.protocol.id.get("name") if self.protocol else None

    @property
    def can_set_up_positions(self) -> bool:
        features = getattr(self.protocol, "features", None)
        return not isinstance(features, _Features) or features.real_setboard

    async def start(self) -> None:
        protocol_class = TimedUciProtocol if self.spec.protocol == "uci" else LenientXBoardProtocol
        label = self.spec.label()
        try:
            # A separate process group keeps Ctrl-C away from the engines: the
            # runner, not the terminal, decides when they stop.
            self.transport, self.protocol = await protocol_class.popen(
                self.spec.command, setpgrp=True, cwd=self.spec.workdir)
        except OSError as exc:
            raise EngineStartError(f"engine {label}: cannot run {' '.join(self.spec.command)!r}: {exc}") from None
        try:
            await asyncio.wait_for(self.protocol.initialize(), START_TIMEOUT)
            options = {k: self._typed(k, _option_value(v)) for k, v in self.spec.options.items()}
            if options:
                await self.protocol.configure(options)
            await asyncio.wait_for(self.protocol.ping(), START_TIMEOUT)
        except asyncio.TimeoutError:
            await self.stop()
            raise EngineStartError(f"engine {label}: no answer to the {self.spec.protocol} handshake "
                                   f"within {START_TIMEOUT:g} s (wrong proto=?)") from None
        except chess.engine.EngineError as exc:
            await self.stop()
            raise EngineStartError(f"engine {label}: {exc}") from None

    def _typed(self, name: str, value: str):
        """The value as the engine's option type holds it ("3" -> 3 for a spin). python-chess
        compares the configured value with the typed one to decide whether a ponder search
        may continue (ponderhit); a string "3" against 3 would read as a change every move."""
        option = self.protocol.options.get(name) if self.protocol else None
        try:
            return option.parse(value) if option is not None else value
        except chess.engine.EngineError:
            return value   # configure() reports it with the engine's name

    async def new_game(self, game_id: object, root: chess.Board) -> None:
        """Start a game from `root` before the clock runs.

        python-chess would send ucinewgame (UCI) or new/setboard (xboard)
        inside the first timed `go`, so a slow hash clear would count as
        thinking time. We send them now and mark the game as current, which
        keeps python-chess from sending them again (it then only feeds the
        moves).
        """
        if self.spec.ponder:
            # A command ends the last game's ponder search (python-chess sends stop);
            # ucinewgame must not reach an engine that is still searching.
            await asyncio.wait_for(self.protocol.ping(), START_TIMEOUT)
        if isinstance(self.protocol, chess.engine.UciProtocol):
            self.protocol.send_line("ucinewgame")
        else:
            self.protocol.send_line("new")
            self.protocol.send_line("force")
            if root.fen() != chess.STARTING_FEN:
                self.protocol.send_line(f"setboard {root.fen(en_passant='fen')}")
            self.protocol.board = root.copy(stack=False)
        self.protocol.game = game_id
        self.protocol.first_game = False
        await asyncio.wait_for(self.protocol.ping(), START_TIMEOUT)

    async def play(self, board: chess.Board, limit: chess.engine.Limit, game_id: object,
                   timeout: Optional[float]) -> Reply:
        """Ask for a move; `timeout` (seconds) is when waiting becomes pointless.

        After any fault the process is stopped: whatever state it is in, a
        fresh one plays the next game.
        """
        reply = await self._ask(board, limit, game_id, timeout)
        if reply.fault:
            await self.stop()
        return reply

    async def _ask(self, board, limit, game_id, timeout) -> Reply:
        started = time.monotonic()
        try:
            result = await asyncio.wait_for(
                self.protocol.play(board, limit, game=game_id, info=INFO, ponder=self.spec.ponder), timeout)
        except asyncio.TimeoutError:
            return Reply(None, time.monotonic() - started, fault=TIMEOUT, detail="no move in time")
        except chess.engine.EngineTerminatedError as exc:
            return Reply(None, time.monotonic() - started, fault=CRASH, detail=str(exc))
        except chess.engine.EngineError as exc:
            # python-chess reports moves it cannot parse or play as
            # "illegal/invalid/ambiguous uci|san: ..."; anything else is a
            # broken conversation.
            text = str(exc)
            kind = ILLEGAL if any(w in text for w in ("illegal", "invalid", "ambiguous")) else PROTOCOL
            return Reply(None, time.monotonic() - started, fault=kind, detail=text)
        elapsed = time.monotonic() - started
        # The engine's own time where the protocol can tell it (UCI without
        # ponder: with ponder, a stopped ponder search's bestmove could be
        # mistaken for this one's); xboard engines keep the wall time.
        timed = self.protocol.stopwatch(started) if isinstance(self.protocol, TimedUciProtocol) else None
        if timed is not None and not self.spec.ponder:
            elapsed = timed
        move = result.move
        if move is None:
            if result.resigned:
                return Reply(None, elapsed, result.info, resigned=True)
            return Reply(None, elapsed, result.info, fault=ILLEGAL, detail="no move (null or result claim)")
        if move not in board.legal_moves:  # python-chess checks too; cheap to be sure
            return Reply(None, elapsed, result.info, fault=ILLEGAL, detail=f"illegal move {move.uci()}")
        return Reply(move, elapsed, result.info)

    def kill(self) -> None:
        """Immediate end, for when there is no time to ask politely."""
        transport, self.transport, self.protocol = self.transport, None, None
        if transport is not None:
            _kill(transport)

    async def stop(self) -> None:
        """Quit politely, or kill after QUIT_TIMEOUT; safe to call twice."""
        transport, protocol = self.transport, self.protocol
        self.transport = self.protocol = None
        if transport is None:
            return
        try:
            if transport.get_returncode() is None:
                await asyncio.wait_for(protocol.quit(), QUIT_TIMEOUT)
        except (asyncio.TimeoutError, chess.engine.EngineError, OSError):
            pass
        finally:
            _kill(transport)


def _kill(transport) -> None:
    """Kill the engine process if it still runs, and close its transport."""
    if transport.get_returncode() is None:
        try:
            transport.kill()
        except ProcessLookupError:
            pass
    transport.close()
