"""Opening suites from EPD and PGN files."""
import chess
import chess.pgn
import pytest

from conftest import shared_data
from engine.tools.match.openings import OpeningError, OpeningSuite, parse_options


def book():
    return shared_data("openings", "8moves_v3.pgn")


def epd_book():
    return shared_data("openings", "2moves_v1.epd")


def suite(*words, seed=None):
    return OpeningSuite(parse_options(list(words)), seed)


def test_pgn_openings_keep_moves_from_the_initial_position():
    openings = suite(f"file={book()}").take(3)
    for opening in openings:
        assert opening.from_standard_start and len(opening.moves) == 16
        assert opening.board().ply() == 16
    # The first game of the book, read independently.
    with open(book()) as handle:
        first = chess.pgn.read_game(handle)
    assert openings[0].board().fen() == first.end().board().fen()


def test_pgn_plies_cut_the_line():
    opening = suite(f"file={book()}", "plies=6").next()
    assert len(opening.moves) == 6


def test_pgn_matches_python_chess_reading(tmp_path):
    text = '[Event "a"]\n\n1. e4 e5 2. Nf3 Nc6 *\n\n[Event "b"]\n[FEN "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"]\n[SetUp "1"]\n\n1. Kd2 *\n'
    path = tmp_path / "two.pgn"
    path.write_text(text)
    first, second = suite(f"file={path}").take(2)
    assert [m.uci() for m in first.moves] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert not second.from_standard_start and second.fen.startswith("8/8/8/4k3")
    assert [m.uci() for m in second.moves] == ["e1d2"]


def test_epd_openings_and_cycling(tmp_path):
    path = tmp_path / "two.epd"
    path.write_text("# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n"
                    "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4; id \"pawn\";\n")
    s = suite(f"file={path}", "start=2")
    assert len(s) == 2
    a, b, c = s.take(3)
    assert a.label == "pawn" and a.fen.startswith("4k3/")
    assert b.fen.startswith("rnbqkbnr/pppppppp/8/8/4P3") and not b.moves
    assert c == a   # the suite starts over


def test_random_order_is_reproducible_and_differs_from_file_order():
    first = [o.board().fen() for o in suite(f"file={epd_book()}", "order=random", seed=5).take(5)]
    again = [o.board().fen() for o in suite(f"file={epd_book()}", "order=random", seed=5).take(5)]
    in_order = [o.board().fen() for o in suite(f"file={epd_book()}").take(5)]
    assert first == again and first != in_order


@pytest.mark.parametrize("words, message", [
    ([], "file="),
    (["file=/no/such/file.epd"], "cannot read"),
    (["file=x", "order=shuffled"], "order="),
    (["file=x", "plies=-1"], "plies="),
    (["file=x", "colour=white"], "unknown"),
    (["file"], "KEY=VALUE"),
])
def test_bad_opening_options(words, message):
    with pytest.raises(OpeningError, match=message):
        OpeningSuite(parse_options(words))


def test_bad_opening_lines(tmp_path):
    bad = tmp_path / "bad.epd"
    bad.write_text("this is not a position\n")
    with pytest.raises(OpeningError, match="bad.epd:1"):
        suite(f"file={bad}").next()
    empty = tmp_path / "empty.pgn"
    empty.write_text("\n")
    with pytest.raises(OpeningError, match="no openings"):
        suite(f"file={empty}")
    broken = tmp_path / "broken.pgn"
    broken.write_text('[Event "x"]\n\n1. e4 e4 *\n')
    with pytest.raises(OpeningError, match="#1"):
        suite(f"file={broken}").next()
