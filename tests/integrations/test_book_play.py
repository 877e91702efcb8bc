"""The opening book through the real engine (`python -m engine`, UCI), where the
other UCI tests do not reach: a corrupt book, BookDepth, and BookMode's choice.

(Covered elsewhere: a book move played at once with its info string,
test_uci_engine.py; a missing book and no book for `go depth`,
test_uci_protocol.py; games with the shipped book, test_uci_games.py.)

The books are written here, entry by entry, in the Polyglot format (16 bytes:
key, move, weight, learn; sorted by key), with python-chess's Zobrist keys.
"""
import struct

import chess
import chess.polyglot


ENTRY = struct.Struct(">QHHI")
GO = "go movetime 100"  # a game move: the book is consulted


def polyglot_move(uci):
    move = chess.Move.from_uci(uci)
    promotion = move.promotion - 1 if move.promotion else 0
    return (promotion << 12) | (move.from_square << 6) | move.to_square


def write_book(path, lines):
    """lines: (moves before, book move, weight); returns the path."""
    entries = []
    for before, move, weight in lines:
        board = chess.Board()
        for played in before:
            board.push_uci(played)
        entries.append((chess.polyglot.zobrist_hash(board), polyglot_move(move), weight))
    entries.sort(key=lambda entry: entry[0])  # stable: equal keys keep their order
    path.write_bytes(b"".join(ENTRY.pack(key, move, weight, 0) for key, move, weight in entries))
    return path


def use_book(raw, path, **options):
    raw.send("setoption name OwnBook value true")
    for name, value in options.items():
        raw.send(f"setoption name {name} value {value}")
    raw.send(f"setoption name BookFile value {path}")


def answer(raw, position):
    """(book move or None, bestmove) for `position` searched with GO."""
    start = len(raw.seen)
    raw.send(position)
    raw.send(GO)
    best = raw.expect("bestmove", timeout=20)[1].split()[1]
    lines = [line for _, line in raw.seen[start:]]
    booked = [line.split()[4] for line in lines if line.startswith("info string book move")]
    if not booked:
        assert any(line.startswith("info depth") for line in lines), lines  # it searched instead
    return (booked[0] if booked else None), best


def test_a_corrupt_book_is_reported_and_the_engine_searches(raw, tmp_path):
    path = write_book(tmp_path / "cut.bin", [((), "e2e4", 1), ((), "d2d4", 1)])
    path.write_bytes(path.read_bytes()[:-3])
    use_book(raw, path)
    message = raw.expect(f"info string opening book is corrupt: {path}")[1]
    assert "playing without a book" in message
    booked, best = answer(raw, "position startpos")
    assert booked is None and chess.Move.from_uci(best) in chess.Board().legal_moves


def test_book_depth_counts_plies_from_the_game_start(raw, tmp_path):
    path = write_book(tmp_path / "line.bin", [((), "e2e4", 10), (("e2e4",), "e7e5", 10),
                                              (("e2e4", "e7e5"), "g1f3", 10)])
    use_book(raw, path, BookDepth=2)
    assert answer(raw, "position startpos") == ("e2e4", "e2e4")
    assert answer(raw, "position startpos moves e2e4") == ("e7e5", "e7e5")
    assert answer(raw, "position startpos moves e2e4 e7e5")[0] is None       # ply 2: out of depth
    raw.send("setoption name BookDepth value 3")
    assert answer(raw, "position startpos moves e2e4 e7e5") == ("g1f3", "g1f3")
    # A FEN's move number counts: the start position as move 11 is 20 plies deep.
    late_start = chess.STARTING_FEN.replace(" 1", " 11")
    assert answer(raw, f"position fen {late_start}")[0] is None


def test_book_mode_best_and_weighted(raw, tmp_path):
    path = write_book(tmp_path / "choice.bin", [((), "e2e4", 3), ((), "d2d4", 1), ((), "c2c4", 0)])
    use_book(raw, path, BookMode="best")
    assert {answer(raw, "position startpos")[1] for _ in range(5)} == {"e2e4"}
    raw.send("setoption name BookMode value weighted")
    picks = [answer(raw, "position startpos")[0] for _ in range(40)]
    # Weights 3:1 (weight 0 means deleted). Chances of a false failure, about 1e-5 each:
    # no d2d4 in 40 picks (0.75**40), or e2e4 fewer than 18 times (binomial tail).
    assert set(picks) == {"e2e4", "d2d4"}, picks
    assert picks.count("e2e4") >= 18, picks
