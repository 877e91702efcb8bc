"""Chess960 and pondering matches (`--variant fischerandom`, the engine word `ponder`).

Real games: Vireo against itself and against Debian's Stockfish (which
plays Chess960 through UCI_Chess960). An engine that wrote castling in the
wrong notation would lose by an illegal move, so every game must end by the
rules or by adjudication, and replay legally on a Chess960 board.
"""
import logging
import re
import sys

import chess
import chess.pgn
import pytest

from conftest import require_engine, shared_data
from engine.__main__ import main
from engine.tools.match.openings import OpeningOptions, OpeningSuite
from engine.tools.match.spec import SpecError, build_spec
from engine.tools.match.variant import VariantError, generated_starts, parse_variant
from test_match_real import check_game, read_games

VIREO = f"cmd={sys.executable} -m engine"
SHORT = ["--resign", "movecount=3", "score=600", "--draw", "movenumber=30", "movecount=4", "score=30"]


def check_chess960_games(games):
    for game in games:
        assert game.headers["Variant"] == "Chess960" and game.headers["SetUp"] == "1"
        assert game.board().chess960
        check_game(game)
        assert game.headers["Termination"] in ("normal", "adjudication"), game.end().comment


def test_chess960_match_vireo_against_stockfish_from_the_frc_openings(tmp_path, capsys):
    stockfish = require_engine("stockfish")
    frc = shared_data("openings", "FRC_openings.epd")
    pgn, report = tmp_path / "frc.pgn", tmp_path / "frc.html"
    status = main(["match", "--variant", "fischerandom", "--engine", VIREO, "name=Vireo", "depth=3",
                   "--engine", f"cmd={stockfish}", "name=Stockfish", "depth=1", "option.Threads=1",
                   "--games", "4", "--concurrency", "2", "--openings", f"file={frc}", "order=random",
                   "--seed", "960", "--pgnout", str(pgn), "--report", str(report), "--no-progress", *SHORT])
    out = capsys.readouterr().out
    assert status == 0 and "Games: 4," in out
    games = read_games(pgn)
    check_chess960_games(games)
    starts = {line.split()[0] for line in frc.read_text().splitlines() if line.strip()}
    assert {g.headers["FEN"].split()[0] for g in games} <= starts
    assert "Chess960" not in games[0].headers["FEN"] and report.read_text().count('class="point"') >= 4


def test_chess960_match_vireo_against_itself_from_drawn_start_positions(tmp_path, capsys):
    pgn = tmp_path / "self.pgn"
    status = main(["match", "--variant", "chess960", "--engine", VIREO, "name=A", "--engine", VIREO, "name=B",
                   "--each", "depth=2", "--games", "2", "--seed", "5", "--pgnout", str(pgn), "--no-progress", *SHORT])
    assert status == 0, capsys.readouterr().err
    games = read_games(pgn)
    check_chess960_games(games)
    expected = next(generated_starts(5))            # the same seed draws the same position
    assert {g.headers["FEN"] for g in games} == {expected.fen}
    assert games[0].headers["Opening"] == expected.label


def test_pondering_match_sends_ponder_and_ponderhit_and_keeps_the_clocks(tmp_path, capsys, caplog):
    stockfish = require_engine("stockfish")
    pgn = tmp_path / "ponder.pgn"
    caplog.set_level(logging.DEBUG, logger="chess.engine")
    status = main(["match", "--engine", VIREO, "name=Vireo", "option.OwnBook=false",
                   "--engine", f"cmd={stockfish}", "name=Stockfish", "option.Threads=1", "option.Skill Level=3",
                   "--each", "ponder", "tc=4+0.1", "--games", "2", "--seed", "1", "--pgnout", str(pgn),
                   "--no-progress", *SHORT])
    assert status == 0, capsys.readouterr().err
    sent = [r.getMessage() for r in caplog.records if "<< " in r.getMessage()]
    pondering = {re.search(r"pid=(\d+)", line).group(1) for line in sent if "<< go ponder" in line}
    assert len(pondering) >= 2                                 # both engines pondered
    assert any(line.endswith("<< ponderhit") for line in sent)   # and a guess came true
    assert sum("setoption name Ponder value true" in line for line in sent) >= 2
    for game in read_games(pgn):
        check_game(game)
        assert game.headers["Termination"] in ("normal", "adjudication"), game.end().comment


def test_variant_names_and_the_ponder_word():
    assert parse_variant("fischerandom") and parse_variant("Chess960") and not parse_variant("standard")
    with pytest.raises(VariantError):
        parse_variant("crazyhouse")
    assert build_spec(["cmd=x", "ponder"]).ponder and not build_spec(["cmd=x"]).ponder
    assert not build_spec(["cmd=x", "ponder=false"]).ponder
    with pytest.raises(SpecError):
        build_spec(["cmd=x", "ponder=maybe"])


def test_frc_openings_keep_their_castling_rights():
    suite = OpeningSuite(OpeningOptions(path=str(shared_data("openings", "FRC_openings.epd"))), chess960=True)
    board = suite.next().board()
    assert board.chess960 and board.castling_rights == board.rooks   # KQkq: the four rooks
    assert len(list(board.generate_castling_moves())) == 0    # pieces stand between king and rooks
