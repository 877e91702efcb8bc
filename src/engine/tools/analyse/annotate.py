"""The annotated PGN of a reviewed game.

Each move's comment starts with the evaluation of the position it led to,
in the form lichess writes and python-chess reads back (`[%eval 0.31,16]`,
`[%eval #-3,16]`, White's view, pawns), then `[%wdl W,D,L]` (White's view,
per mille) when the engine reports WDL. Marks are NAGs ($6 ?!, $2 ?, $4 ??).
At a mistake or a blunder the engine's better line(s) follow as variations.
The game's own comments are kept after ours.
"""
import chess
import chess.pgn

from .judgement import NAMES
from .review import GameReview, MoveReview


def _comment(move: MoveReview, original: str) -> str:
    parts = []
    after = move.after
    if after.wdl is not None:
        w, d, l = after.wdl.white()
        parts.append(f"[%wdl {w},{d},{l}]")
    verdict = move.judgement
    if verdict.nag:
        text = f"{NAMES[verdict.nag].capitalize()}: win chance {verdict.win_before:.0f}% -> {verdict.win_after:.0f}%."
        if move.serious and move.better is not None:
            text += f" {move.board_before.san(move.better)} was better."
        parts.append(text)
    if original:
        parts.append(original)
    return " ".join(parts)


def annotated_game(reviewed: GameReview, annotator: str) -> chess.pgn.Game:
    source = reviewed.item.game
    game = chess.pgn.Game()
    game.headers.clear()
    for key, value in source.headers.items():
        game.headers[key] = value
    game.comment = source.comment
    game.headers["Annotator"] = annotator
    for side, summary in (("White", reviewed.white), ("Black", reviewed.black)):
        game.headers[f"{side}Accuracy"] = f"{summary.accuracy:.1f}"
        game.headers[f"{side}ACPL"] = f"{summary.acpl:.0f}"
    node, original = game, source
    for move in reviewed.moves:
        original = original.next()
        parent = node
        node = parent.add_main_variation(move.move)
        node.set_eval(move.after.score, move.after.depth)   # first, as lichess writes it; none after a mate
        node.comment = " ".join(p for p in (node.comment, _comment(move, original.comment if original else "")) if p)
        if move.judgement.nag:
            node.nags.add(move.judgement.nag)
        if move.serious:
            for line in move.before.lines:
                if line and line[0] != move.move and not parent.has_variation(line[0]):
                    parent.add_line(line)
    return game
