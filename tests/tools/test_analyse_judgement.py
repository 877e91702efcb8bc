"""`vireo analyse`: how moves are marked and sides scored, on evaluations given
by hand (no engine), so every rule of docs/analysis.md is checked exactly."""
import io

import chess
import chess.engine
import chess.pgn
import pytest

from engine.tools.analyse.analyser import PositionEval, final_eval
from engine.tools.analyse.annotate import annotated_game
from engine.tools.analyse.games import GameInput
from engine.tools.analyse.judgement import BLUNDER, INACCURACY, MISTAKE, judge
from engine.tools.analyse.review import review
from engine.tools.analyse.winchance import game_accuracy, move_accuracy, win_percent

Cp, Mate = chess.engine.Cp, chess.engine.Mate


def test_win_percent_is_lichess_logistic_curve():
    assert win_percent(0) == 50
    assert win_percent(300) + win_percent(-300) == pytest.approx(100)
    assert win_percent(1000) == win_percent(5000) > 97 > win_percent(500) > win_percent(100) > 50
    assert win_percent(100) == pytest.approx(59.1, abs=0.05)   # lichess shows +1.00 as about 59 %


def test_move_accuracy_is_100_without_loss_and_falls_with_it():
    assert move_accuracy(50, 50) == move_accuracy(40, 60) == 100
    assert 100 > move_accuracy(50, 45) > move_accuracy(50, 30) > move_accuracy(90, 10) >= 0


@pytest.mark.parametrize("before, after, nag", [
    (Cp(0), Cp(-20), None),          # 1.8 win % points
    (Cp(0), Cp(-70), INACCURACY),    # 6.4
    (Cp(0), Cp(-130), MISTAKE),      # 11.9
    (Cp(0), Cp(-200), BLUNDER),      # 17.6
    (Cp(900), Cp(700), None),        # 96.5 -> 92.9: still winning
    (Cp(900), Cp(500), MISTAKE),     # 96.5 -> 86.3: lichess marks it, winning or not
    (Mate(3), Cp(1500), INACCURACY),   # a mate thrown away, still 15 pawns up
    (Mate(3), Cp(800), MISTAKE),
    (Mate(3), Cp(300), BLUNDER),
    (Mate(3), Mate(2), None),          # the mate comes a move sooner: fine
    (Cp(20), Mate(-2), BLUNDER),       # walked into a mate
    (Cp(-800), Mate(-2), MISTAKE),     # ... from a lost position
    (Cp(-1500), Mate(-2), INACCURACY),
    (Cp(-450), Cp(-1000), MISTAKE),    # 14.1 -> 2.5 win %: lost already, so never a blunder
    (Cp(-300), Mate(-1), BLUNDER),     # 24.9 % is not lost yet
])
def test_marks_follow_the_win_percent_lost(before, after, nag):
    assert judge(before, after, forced=False, engine_choice=False).nag == nag


def test_forced_moves_and_the_engines_own_choice_are_never_marked():
    assert judge(Cp(0), Mate(-1), forced=True, engine_choice=False).nag is None
    assert judge(Cp(0), Cp(-900), forced=False, engine_choice=True).nag is None


def _evals(board, moves, scores):
    """PositionEval per position from White's centipawns (None: a finished game); best = `best` moves."""
    out = []
    for i, cp in enumerate(scores):
        position = board.copy()
        for move in moves[:i]:
            position.push(move)
        if cp is None:
            out.append(final_eval(position))
        else:
            best = [m for m in position.legal_moves if i >= len(moves) or m != moves[i]]
            out.append(PositionEval(chess.engine.PovScore(Cp(cp), chess.WHITE), 12, None, [best[:1]]))
    return out


def test_review_marks_the_hung_queen_only_and_scores_both_sides():
    game = chess.pgn.read_game(io.StringIO("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Kxf7 *"))
    moves = list(game.mainline_moves())
    evals = _evals(game.board(), moves, [20, 30, 25, 10, 15, -880, -870])
    reviewed = review(GameInput(1, "test #1", game), evals)
    assert [m.judgement.nag for m in reviewed.moves] == [None, None, None, None, BLUNDER, None]
    assert reviewed.moves[4].serious and reviewed.moves[4].better is not None
    assert reviewed.white.accuracy < 60 < 95 < reviewed.black.accuracy
    assert reviewed.white.acpl == pytest.approx((0 + 15 + 895) / 3)
    assert reviewed.black.acpl == pytest.approx((0 + 5 + 10) / 3)

    pgn = str(annotated_game(reviewed, "test"))
    back = chess.pgn.read_game(io.StringIO(pgn))
    nodes = list(back.mainline())
    assert [n.eval().white().score() for n in nodes] == [30, 25, 10, 15, -880, -870]
    assert [n.eval_depth() for n in nodes] == [12] * 6
    assert nodes[4].nags == {BLUNDER} and not any(n.nags for i, n in enumerate(nodes) if i != 4)
    assert len(nodes[4].parent.variations) == 2          # the better line beside the blunder
    assert back.headers["WhiteACPL"] == "303" and float(back.headers["BlackAccuracy"]) > 95


def test_a_mating_move_ends_the_game_without_an_eval_and_the_forced_reply_is_unmarked():
    # 1. f3 e5 2. g4 Qh4#: White's second move walks into mate; the mate itself is on the board.
    game = chess.pgn.read_game(io.StringIO("1. f3 e5 2. g4 Qh4# 0-1"))
    moves = list(game.mainline_moves())
    reviewed = review(GameInput(1, "t", game), _evals(game.board(), moves, [20, -30, -20, -100000, None]))
    reviewed.moves[2].after = PositionEval(chess.engine.PovScore(Mate(-1), chess.WHITE), 12, None, [])
    reviewed = review(GameInput(1, "t", game), [reviewed.start] + [m.after for m in reviewed.moves])
    assert [m.judgement.nag for m in reviewed.moves] == [None, None, BLUNDER, None]
    last = list(chess.pgn.read_game(io.StringIO(str(annotated_game(reviewed, "t")))).mainline())[-1]
    assert last.eval() is None and reviewed.black.accuracy > 90


def test_game_accuracy_of_a_flawless_game_is_100_for_both():
    assert game_accuracy([20, 20, 20, 20, 20], True) == (100.0, 100.0)


def test_a_forced_reply_is_not_marked_however_far_the_eval_falls():
    game = chess.pgn.read_game(io.StringIO("1. e4 f5 2. Qh5+ g6 *"))   # 2... g6 is Black's only legal move
    moves = list(game.mainline_moves())
    reviewed = review(GameInput(1, "t", game), _evals(game.board(), moves, [20, 30, 300, 400, 1500]))
    assert [m.judgement.nag for m in reviewed.moves] == [None, BLUNDER, None, None]
    assert reviewed.moves[3].judgement.loss > 15 and reviewed.moves[3].cp_loss == 600
