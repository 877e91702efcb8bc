"""Small PGN games whose searched moves carry `vireo match`'s
`{ score/depth time }` comments, for the tests of the PGN readers in
benchmarks/ (pgn_decided.py, pgn_seen_first.py)."""
import chess.pgn


def game(white, black, result, moves_and_scores):
    """A game of these SAN moves; a score (mover's view, as "+0.84" or "-M1") becomes the move's comment."""
    record = chess.pgn.Game()
    record.headers.update(White=white, Black=black, Result=result)
    node = record
    for san, score in moves_and_scores:
        node = node.add_variation(node.board().parse_san(san))
        if score is not None:
            node.comment = f"{score}/12 0.100s"
    return record
