"""`vireo analyse` end to end, with Vireo at a small fixed depth on games built
for the test: a hung queen, a mate walked into and then missed, a lost position
that gets worse. The marks must land on those moves and nowhere else, and
python-chess must read the evaluations back."""
import io
import re

import chess
import chess.pgn

from analyse_games import ALREADY_LOST, HUNG_QUEEN, MISSED_MATE
from engine.__main__ import main
from engine.tools.analyse.judgement import BLUNDER

# Depth 10: at depth 6 generation 12 swings 0.6 pawns on 3. Nc3 of the hung-queen
# game and marks it ?!, a depth artefact the test is not about (8 passes; 10 keeps a margin).
DEPTH = "10"


def games_of(text):
    handle, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


def test_marks_land_on_the_bad_moves_only_and_evals_read_back(tmp_path, capsys):
    pgn, out = tmp_path / "built.pgn", tmp_path / "annotated.pgn"
    pgn.write_text("\n".join([HUNG_QUEEN, MISSED_MATE, ALREADY_LOST]))
    assert main(["analyse", str(pgn), "--depth", DEPTH, "--no-progress", "--output", str(out)]) == 0
    assert "3 games analysed" in capsys.readouterr().err
    hung, missed, lost = games_of(out.read_text())

    nags = [node.nags for node in hung.mainline()]
    assert nags[10] == {BLUNDER} and not any(n for i, n in enumerate(nags) if i != 10)   # 6. Qg4?? only
    assert [node.nags for node in missed.mainline()] == [{BLUNDER}, {BLUNDER}]
    mate_node = list(missed.mainline())[1]
    assert [v.move.uci() for v in mate_node.parent.variations] == ["h2h3", "e1e8"]   # the better line: Re8#
    assert "Re8# was better" in mate_node.comment

    black = [node for node in lost.mainline() if node.parent.turn() == chess.BLACK]
    assert not any(BLUNDER in node.nags for node in black)        # lost already: never ??
    assert black[-1].san() == "Kh8" and black[-1].nags            # ... though walking into mate is marked

    for game in (hung, missed, lost):
        nodes = list(game.mainline())
        finished = nodes[-1].board().is_checkmate()
        for node in nodes[:-1] if finished else nodes:   # the mate on the board has no eval
            assert node.eval() is not None and node.eval_depth() == int(DEPTH)
            assert re.search(r"\[%wdl \d+,\d+,\d+\]", node.comment)   # Vireo offers UCI_ShowWDL
        assert nodes[-1].board().is_checkmate() or nodes[-1].eval() is not None
        for side in ("White", "Black"):
            assert 0 <= float(game.headers[f"{side}Accuracy"]) <= 100 and int(game.headers[f"{side}ACPL"]) >= 0
        assert game.headers["Annotator"].startswith("vireo analyse, Vireo")
    assert float(hung.headers["WhiteAccuracy"]) < float(hung.headers["BlackAccuracy"])
    assert list(lost.mainline())[5].eval().white().score() > 500   # White stays winning after 4. Qxf7+


def test_help_names_the_limits_and_the_report(capsys):
    try:
        main(["analyse", "--help"])
    except SystemExit as exc:
        assert exc.code == 0
    text = capsys.readouterr().out
    for word in ("--depth", "--nodes", "--time", "--multipv", "--concurrency", "--engine", "--output", "--report"):
        assert word in text


def test_bad_arguments_are_refused_with_status_2(tmp_path, capsys):
    pgn = tmp_path / "g.pgn"
    pgn.write_text(HUNG_QUEEN)
    assert main(["analyse", str(pgn), "--depth", "0"]) == 2
    assert "--depth must be at least 1" in capsys.readouterr().err
    assert main(["analyse", str(pgn), "--engine", "tc=10+0.1"]) == 2
    assert "tc= means nothing to an analysis" in capsys.readouterr().err
    assert main(["analyse", str(pgn), "--engine", "colour=blue"]) == 2
    assert "unknown engine key 'colour'" in capsys.readouterr().err
