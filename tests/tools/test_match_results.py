"""The running tally, its report, and PGN output of game records."""
import io

import chess
import chess.pgn

from engine.tools.match.game import GameRecord, PlayedMove
from engine.tools.match.openings import STANDARD_START, Opening
from engine.tools.match.pgn_writer import GameLabels, PgnWriter, build_pgn
from engine.tools.match.results import Tally
from engine.tools.match.sprt import Sprt


def test_tally_counts_from_the_first_engines_side_and_builds_pairs():
    tally = Tally("A", "B")
    # Pair 0: A wins with White, then draws with Black -> 1.5 points.
    assert not tally.add(0, True, "1-0", "normal")
    assert tally.add(0, False, "1/2-1/2", "normal")
    # Pair 1: A loses with White on time, wins with Black -> 1 point.
    tally.add(1, True, "0-1", "time forfeit")
    tally.add(1, False, "0-1", "adjudication")
    # Pair 2: only one game finished (stopped match): not a pair yet.
    tally.add(2, True, "0-1", "normal")
    assert (tally.wins, tally.draws, tally.losses) == (2, 1, 2)
    assert tally.pentanomial == [0, 0, 1, 1, 0]
    assert tally.endings[("time forfeit", "A")] == 1


def test_report_lines():
    tally = Tally("A", "B")
    for pair in range(10):
        tally.add(pair, True, "1-0", "normal")
        tally.add(pair, False, "1/2-1/2", "normal")
    text = tally.report(Sprt(0, 10))
    assert "Results of A vs B" in text
    assert "Games: 20, Wins: 10, Draws: 10, Losses: 0, Points: 15 (75.00%)" in text
    assert "Elo: +190.85" in text          # a 75% score
    assert "Pentanomial [0, 0.5, 1, 1.5, 2]: [0, 0, 0, 10, 0] (10 pairs)" in text
    assert "SPRT (elo0=0, elo1=10" in text
    assert "Draw ratio: 50.00%" in text
    assert Tally("A", "B").report().endswith("no finished games")


def _record():
    board = chess.Board()
    moves = [board.push_san(san) for san in ("f3", "e5", "g4", "Qh4#")]
    record = GameRecord(STANDARD_START, [PlayedMove(m, "+0.10/5 0.010s") for m in moves])
    record.result, record.termination, record.reason = "0-1", "normal", "Black mates"
    return record


def test_pgn_of_a_game_round_trips():
    labels = GameLabels("Test", "3.2", "W", "B", "10+0.1", "depth 3")
    game = build_pgn(_record(), labels)
    parsed = chess.pgn.read_game(io.StringIO(str(game)))
    assert not parsed.errors
    assert parsed.headers["Result"] == "0-1" and parsed.headers["Round"] == "3.2"
    assert parsed.headers["WhiteTimeControl"] == "10+0.1" and parsed.headers["BlackTimeControl"] == "depth 3"
    assert parsed.headers["Termination"] == "normal" and parsed.headers["PlyCount"] == "4"
    assert parsed.end().board().is_checkmate()
    assert "Black mates" in parsed.end().comment


def test_pgn_of_an_opening_from_a_position(tmp_path):
    opening = Opening("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", (chess.Move.from_uci("e2e4"),), "pawn")
    record = GameRecord(opening, [PlayedMove(chess.Move.from_uci("e8d7"), "")])
    record.result, record.termination, record.reason = "1-0", "rules infraction", "Black makes an illegal move"
    path = tmp_path / "out.pgn"
    writer = PgnWriter(str(path))
    labels = GameLabels("Test", "1.1", "W", "B", "1+0", "1+0")
    writer.write(record, labels)
    writer.write(record, labels)
    writer.close()
    with open(path) as handle:
        games = [chess.pgn.read_game(handle) for _ in range(3)]
    assert games[2] is None
    for game in games[:2]:
        assert game.headers["FEN"] == opening.fen and game.headers["SetUp"] == "1"
        assert game.headers["TimeControl"] == "1+0" and game.headers["Opening"] == "pawn"
        assert [m.uci() for m in game.mainline_moves()] == ["e2e4", "e8d7"]
        assert "book" in game.next().comment
