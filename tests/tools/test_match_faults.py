"""Faulty engines lose, by name and reason: illegal moves, crashes, hangs, time.

The faulty engines are a small scripted UCI engine written by the test.
"""
import sys

import chess
import chess.pgn
import pytest

from engine.tools.match.runner import MatchSettings, run_match
from engine.tools.match.spec import build_spec
from engine.tools.match.sprt import Sprt

FAKE_ENGINE = r'''
import sys, time
import chess

mode, after = sys.argv[1], int(sys.argv[2])
sys.stdout.reconfigure(line_buffering=True)
board, searches = chess.Board(), 0

def illegal(board):
    # Moving the opponent's king is never legal.
    king = board.king(not board.turn)
    target = next(s for s in chess.SQUARES if chess.square_distance(s, king) == 1)
    return chess.square_name(king) + chess.square_name(target)

for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name Fake-" + mode)
        print("option name Hash type spin default 1 min 1 max 64")
        print("uciok")
    elif words[0] == "isready":
        print("readyok")
    elif words[0] == "position":
        rest = line.split("moves")
        board = chess.Board() if words[1] == "startpos" else chess.Board(" ".join(words[2:8]))
        for uci in (rest[1].split() if len(rest) > 1 else []):
            board.push_uci(uci)
    elif words[0] == "go":
        searches += 1
        if searches > after:
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                continue
            if mode == "illegal":
                print("bestmove " + illegal(board))
                continue
            if mode == "nomove":
                print("bestmove (none)")
                continue
        move = min(board.legal_moves, key=lambda m: m.uci())
        print("info depth 1 score cp 0 pv " + move.uci())
        print("bestmove " + move.uci())
    elif words[0] == "quit":
        break
'''


@pytest.fixture
def fake(tmp_path):
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)

    def spec(mode, after=0, *words):
        return build_spec([f"cmd={sys.executable}", f"arg={script}", f"arg={mode}", f"arg={after}",
                           f"name={mode}", *words])
    return spec


def play(tmp_path, first, second, games=2, **options):
    pgn = tmp_path / "games.pgn"
    outcome = run_match(MatchSettings(engines=(first, second), games=games, pgn_path=str(pgn),
                                      progress=False, **options))
    with open(pgn) as handle:
        records = []
        while (game := chess.pgn.read_game(handle)) is not None:
            assert not game.errors
            records.append(game)
    return outcome, records


@pytest.mark.parametrize("mode, termination, reason", [
    ("illegal", "rules infraction", "makes an illegal move"),
    ("nomove", "rules infraction", "makes an illegal move"),
    ("crash", "abandoned", "crashed or disconnected"),
])
def test_faulty_engine_loses_every_game(tmp_path, fake, mode, termination, reason):
    outcome, games = play(tmp_path, fake("legal", 0, "depth=1"), fake(mode, 2, "depth=1"))
    assert outcome.stop_reason == "completed"
    assert (outcome.tally.wins, outcome.tally.draws, outcome.tally.losses) == (2, 0, 0)
    assert outcome.tally.endings[(termination, mode)] == 2
    assert len(games) == 2
    for game in games:
        loser = "White" if game.headers["White"] == mode else "Black"
        assert game.headers["Termination"] == termination
        assert game.headers["Result"] == ("0-1" if loser == "White" else "1-0")
        assert f"{loser} " in game.end().comment or f"{loser}'s" in game.end().comment
        assert reason in game.end().comment
        # The faulty engine played its two good moves first; its process was
        # restarted for the second game.
        assert len(list(game.mainline_moves())) in (4, 5)


def test_engine_that_never_answers_loses_on_time(tmp_path, fake):
    outcome, games = play(tmp_path, fake("legal", 0, "tc=5+0"), fake("hang", 1, "tc=0.3+0", "timemargin=50"))
    assert outcome.tally.wins == 2
    for game in games:
        assert game.headers["Termination"] == "time forfeit"
        assert "loses on time" in game.end().comment


def test_engine_without_a_clock_that_hangs_loses_by_stall(tmp_path, fake):
    # depth= gives no clock to lose on: before the stall timeout this match waited forever.
    outcome, games = play(tmp_path, fake("legal", 0, "depth=1"), fake("hang", 1, "depth=1", "stall=0.5"))
    assert outcome.stop_reason == "completed"
    assert outcome.tally.wins == 2
    for game in games:
        assert game.headers["Termination"] == "abandoned"
        assert "stalls: no move within 0.5 s" in game.end().comment


def test_sprt_stops_the_match_early(tmp_path, fake):
    outcome, games = play(tmp_path, fake("legal", 0, "depth=1"), fake("illegal", 0, "depth=1"),
                          games=200, concurrency=2, sprt=Sprt(0, 50))
    assert outcome.stop_reason == "sprt"
    assert 20 < outcome.tally.games < 200
    assert len(games) == outcome.tally.games
    # Rounds name the opening pair and the game in it.
    assert {g.headers["Round"] for g in games} >= {"1.1", "1.2", "2.1", "2.2"}


def test_engine_that_cannot_start_is_an_error(tmp_path, fake):
    broken = build_spec(["cmd=/nonexistent/engine", "depth=1"])
    outcome = run_match(MatchSettings(engines=(fake("legal", 0, "depth=1"), broken), games=2, progress=False))
    assert outcome.stop_reason == "error" and "cannot run" in outcome.error
    assert outcome.tally.games == 0


def test_unknown_option_is_an_error(tmp_path, fake):
    outcome = run_match(MatchSettings(engines=(fake("legal", 0, "depth=1", "option.NoSuch=1"),
                                               fake("legal", 0, "depth=1")), games=2, progress=False))
    assert outcome.stop_reason == "error" and "NoSuch" in outcome.error


def test_uci_moves_are_timed_from_go_to_bestmove_only():
    """The stopwatch of a UCI engine runs from writing `go` to reading
    `bestmove`, as a GUI's clock does: the runner's own work before and after
    (here a sleep) is not the engine's time, and a `go ponder` does not start it."""
    import asyncio
    import time

    from engine.tools.match.player import TimedUciProtocol

    class Pipe:
        def __init__(self):
            self.written = []

        def write(self, data):
            self.written.append(data)

    class Transport:
        pipe = Pipe()

        def get_pipe_transport(self, fd):
            return self.pipe

    async def exchange():
        protocol = TimedUciProtocol()
        protocol.transport = Transport()
        since = time.monotonic()
        protocol.send_line("position startpos")
        time.sleep(0.05)                       # the runner is slow to send go: not the engine's time
        protocol.send_line("go wtime 1000 btime 1000")
        time.sleep(0.03)                       # the engine thinks
        protocol.line_received("info depth 1 score cp 0 pv e2e4")
        protocol.line_received("bestmove e2e4 ponder e7e5")
        protocol.send_line("position startpos moves e2e4 e7e5")
        protocol.send_line("go ponder wtime 1000 btime 1000")
        time.sleep(0.05)                       # the runner is slow to read the result
        return protocol, since

    protocol, since = asyncio.run(exchange())
    assert 0.03 <= protocol.stopwatch(since) < 0.045
    assert protocol.stopwatch(time.monotonic()) is None     # no go since then
    assert b"go ponder" in protocol.transport.pipe.written[-1]
