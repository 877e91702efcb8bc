"""An xboard client that sets up FEN positions in edit mode, for engines without setboard.

Fairy-Max declares setboard=0 but supports the protocol's older `edit`
mode, which xboard itself uses for such engines. python-chess sends
`new`, `force`, then `setboard <fen>`; this client replaces that last line
with the edit sequence of the xboard protocol (version 2):

    a2a3             only when Black is to move: edit keeps the side to move,
                     and after `new` one White move hands the turn to Black
    edit  #          enter edit mode, clear the board
    Pe2 ...          White's pieces
    c                switch to Black's pieces
    ke8 ...          Black's pieces (the piece letter is uppercase in the protocol)
    .                leave edit mode

Edit mode has no en passant square or move counters, and the protocol tells
engines to assume castling rights whenever a king and a rook stand on their
original squares: edit_commands refuses positions where that would tell the
engine something wrong. The move counters do not matter for a defender: the
test keeps the 50-move count itself.
"""
import chess
import chess.engine

from uci_real_engine import LenientXBoardProtocol


def edit_commands(fen: str):
    """The xboard lines that set up `fen` after `new` and `force`."""
    board = chess.Board(fen)
    if board.castling_rights or board.has_legal_en_passant():
        raise ValueError(f"edit mode cannot express castling rights or en passant: {fen}")
    for king, rooks in ((chess.E1, (chess.A1, chess.H1)), (chess.E8, (chess.A8, chess.H8))):
        color = chess.WHITE if king == chess.E1 else chess.BLACK
        if board.piece_at(king) == chess.Piece(chess.KING, color) and \
                any(board.piece_at(rook) == chess.Piece(chess.ROOK, color) for rook in rooks):
            raise ValueError(f"edit mode would give castling rights that the FEN does not: {fen}")
    lines = [] if board.turn == chess.WHITE else ["a2a3"]
    lines += ["edit", "#"]
    for color in (chess.WHITE, chess.BLACK):
        if color == chess.BLACK:
            lines.append("c")
        for square, piece in board.piece_map().items():
            if piece.color == color:
                lines.append(piece.symbol().upper() + chess.square_name(square))
    lines.append(".")
    return lines


class EditXBoardProtocol(LenientXBoardProtocol):
    """python-chess's xboard client with `setboard` turned into edit mode."""

    def send_line(self, line: str) -> None:
        if line.startswith("setboard "):
            for edit_line in edit_commands(line[len("setboard "):]):
                super().send_line(edit_line)
        else:
            super().send_line(line)


def popen_xboard_edit(path):
    return chess.engine.SimpleEngine.popen(EditXBoardProtocol, [path])
