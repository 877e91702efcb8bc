"""Book builder: encoding, weights, round trips through python-chess and Debian's polyglot, CLI."""
import argparse
import io
import re
import subprocess
from collections import defaultdict

import chess
import chess.pgn
import chess.polyglot
import pytest
from conftest import SHARED_DATA, require_engine

from engine.tools import book as book_cli
from engine.book.build import BookBuildError, BookBuilder, build_book, encode_move, parse_movetext
from engine.book.verify import Verifier, weight_for

DATA = SHARED_DATA
OPENINGS = DATA / "openings"

# Castling both ways for both sides, a queen promotion and an under-promotion,
# every result token, and a transposition (games 1 and 2 reach the same position).
SAMPLE_PGN = """[Event "castles"]
[Result "1-0"]

1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O 1-0

[Event "long castles"]
[Result "0-1"]

1. Nf3 Nc6 2. e4 e5 3. d4 d6 4. Nc3 Bg4 5. Be3 Qd7 6. Qd2 O-O-O 7. O-O-O Kb8 0-1

[Event "promotions"]
[Result "1/2-1/2"]

1. h4 g5 2. hxg5 h6 3. gxh6 Nf6 4. h7 Ng8 5. hxg8=Q Rxg8 6. e4 Rh8 7. Rxh8 a5 8. e5 a4 9. e6 a3
10. exf7+ Kxf7 11. Nc3 axb2 12. Rb1 bxc1=N 13. Rxc1 *

[Event "a draw, short castles"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 1/2-1/2

[Event "a draw, long castles"]
[Result "1/2-1/2"]

1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O 1/2-1/2
"""


def parser():
    p = argparse.ArgumentParser()
    book_cli.add_arguments(p)
    return p


def read_entries(path):
    with chess.polyglot.open_reader(str(path)) as reader:
        return [(e.key, e.raw_move, e.weight, e.learn) for e in reader]


def games_of(text):
    handle, games = io.StringIO(text), []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


def expected_weights(games, max_plies=None):
    """Independent oracle: (key, move as python-chess decodes it) -> 2*wins + draws of the mover."""
    points = {"1-0": (2, 0), "0-1": (0, 2)}
    table = defaultdict(int)
    for game in games:
        board = game.board()
        white, black = points.get(game.headers["Result"], (1, 1))
        for ply, move in enumerate(game.mainline_moves()):
            if max_plies is not None and ply >= max_plies:
                break
            table[(chess.polyglot.zobrist_hash(board), move)] += white if board.turn else black
            board.push(move)
    return {k: v for k, v in table.items() if v > 0}


def decoded_book(path, games):
    """(key, move) -> weight, moves decoded by python-chess in the positions the games reach."""
    found = {}
    with chess.polyglot.open_reader(str(path)) as reader:
        for game in games:
            board = game.board()
            for move in list(game.mainline_moves()) + [None]:
                for entry in reader.find_all(board):
                    found[(entry.key, entry.move)] = entry.weight
                if move is not None:
                    board.push(move)
    return found


# -- encoding -------------------------------------------------------------------

@pytest.mark.parametrize("fen, uci, expected", [
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1", "e1h1"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1", "e1a1"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8g8", "e8h8"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "e8a8"),
])
def test_castling_is_encoded_as_king_takes_rook(fen, uci, expected):
    board = chess.Board(fen)
    code = encode_move(board, chess.Move.from_uci(uci))
    assert code == chess.parse_square(expected[2:]) | chess.parse_square(expected[:2]) << 6


@pytest.mark.parametrize("uci, piece_bits", [("f2g1n", 1), ("f2g1b", 2), ("f2g1r", 3), ("f2g1q", 4)])
def test_promotion_bits(uci, piece_bits):
    board = chess.Board("8/8/8/8/8/8/5p2/K5Nk b - - 0 1")
    code = encode_move(board, chess.Move.from_uci(uci))
    assert code >> 12 == piece_bits
    assert code & 0xFFF == chess.G1 | chess.F2 << 6


def test_king_move_to_g1_is_not_mistaken_for_castling():
    board = chess.Board("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    board.push_san("Kf1"); board.push_san("Kd8")
    assert encode_move(board, chess.Move.from_uci("f1g1")) == chess.G1 | chess.F1 << 6


# -- round trips ------------------------------------------------------------------

def test_pgn_round_trip_through_python_chess(tmp_path):
    pgn = tmp_path / "sample.pgn"
    pgn.write_text(SAMPLE_PGN)
    count, builder = build_book(str(tmp_path / "s.bin"), pgn_files=[str(pgn)])
    assert builder.problems == []
    entries = read_entries(tmp_path / "s.bin")
    assert count == len(entries) > 0
    assert (tmp_path / "s.bin").stat().st_size == 16 * count
    assert [e[0] for e in entries] == sorted(e[0] for e in entries)
    assert len({(k, m) for k, m, _, _ in entries}) == len(entries)  # one entry per (key, move)
    assert all(learn == 0 for *_, learn in entries)
    games = games_of(SAMPLE_PGN)
    assert decoded_book(tmp_path / "s.bin", games) == expected_weights(games)


def test_special_moves_survive_the_round_trip(tmp_path):
    pgn = tmp_path / "sample.pgn"
    pgn.write_text(SAMPLE_PGN)
    build_book(str(tmp_path / "s.bin"), pgn_files=[str(pgn)])
    stored = {m for k, m, _, _ in read_entries(tmp_path / "s.bin")}
    for square_from, square_to in [("e1", "h1"), ("e8", "h8"), ("e1", "a1"), ("e8", "a8")]:
        assert chess.parse_square(square_to) | chess.parse_square(square_from) << 6 in stored
    assert (4 << 12) | chess.G8 | chess.H7 << 6 in stored  # hxg8=Q
    # bxc1=N comes from a game with no result: counted as a draw, so it is there with weight 1
    assert (1 << 12) | chess.C1 | chess.B2 << 6 in stored


def test_max_plies_and_duplicates(tmp_path):
    pgn = tmp_path / "sample.pgn"
    pgn.write_text(SAMPLE_PGN + "\n" + SAMPLE_PGN)  # every game twice
    build_book(str(tmp_path / "twice.bin"), pgn_files=[str(pgn)], max_plies=3)
    games = games_of(SAMPLE_PGN + "\n" + SAMPLE_PGN)
    expected = expected_weights(games, max_plies=3)
    assert decoded_book(tmp_path / "twice.bin", games) == expected
    once = expected_weights(games_of(SAMPLE_PGN), max_plies=3)
    assert expected == {k: 2 * v for k, v in once.items()}
    depths = set()
    with chess.polyglot.open_reader(str(tmp_path / "twice.bin")) as reader:
        for game in games:
            board = game.board()
            for move in game.mainline_moves():
                if any(True for _ in reader.find_all(board)):
                    depths.add(board.ply())
                board.push(move)
    assert depths == {0, 1, 2}


def test_a_repeated_position_counts_once_per_game():
    builder = BookBuilder()
    moves = parse_movetext("1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6")
    builder.add_line(chess.Board(), moves, "1-0")
    start = {raw: w for key, raw, w in builder.entries() if key == chess.polyglot.zobrist_hash(chess.Board())}
    assert start == {chess.F3 | chess.G1 << 6: 2}  # not 4


def test_min_games_and_losing_moves(tmp_path):
    builder = BookBuilder(min_games=2)
    builder.add_line(chess.Board(), parse_movetext("1. e4 e5"), "1-0")
    builder.add_line(chess.Board(), parse_movetext("1. e4 c5"), "1-0")
    builder.add_line(chess.Board(), parse_movetext("1. d4"), "1-0")
    entries = builder.entries()
    # e4 (2 games) stays; d4 (1 game) goes; e5 and c5 only lost and 1 game each: gone.
    assert [(raw, w) for _, raw, w in entries] == [(chess.E4 | chess.E2 << 6, 4)]


def test_weights_are_scaled_into_16_bits():
    builder = BookBuilder()
    e4, d4 = parse_movetext("1. e4"), parse_movetext("1. d4")
    for _ in range(33000):
        builder.add_line(chess.Board(), e4, "1-0")   # 66000 points
    for _ in range(330):
        builder.add_line(chess.Board(), d4, "1-0")   # 660 points
    builder.add_line(chess.Board(), parse_movetext("1. c4"), "1/2-1/2")  # 1 point
    weights = {raw: w for _, raw, w in builder.entries()}
    assert weights[chess.E4 | chess.E2 << 6] == 65535
    assert weights[chess.D4 | chess.D2 << 6] == 655   # 660 * 65535 / 66000
    assert weights[chess.C4 | chess.C2 << 6] == 1     # never rounded away


def test_tsv_lines(tmp_path):
    tsv = tmp_path / "x.tsv"
    tsv.write_text("eco\tname\tpgn\n"
                   "C20\tKing's Pawn\t1. e4 e5\n"
                   "C20\tSame line again\t1. e4 e5\n"
                   "C40\tKing's Knight\t1. e4 e5 2. Nf3\n"
                   "X00\tBroken\t1. e4 e5 2. Ke3\n"
                   "X00\tNo moves column\n")
    builder = BookBuilder()
    assert builder.add_tsv(str(tsv)) == 2
    assert len(builder.problems) == 2 and "'Ke3'" in builder.problems[0]
    by_move = {raw: w for _, raw, w in builder.entries()}
    assert by_move[chess.E4 | chess.E2 << 6] == 2  # two distinct lines (the duplicate counts once)
    assert by_move[chess.F3 | chess.G1 << 6] == 1


def test_tsv_with_wrong_header(tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("a\tb\n1\t2\n")
    with pytest.raises(BookBuildError, match="'pgn' column"):
        BookBuilder().add_tsv(str(bad))


def test_missing_input_and_unwritable_output(tmp_path):
    with pytest.raises(BookBuildError, match="cannot read"):
        build_book(str(tmp_path / "o.bin"), pgn_files=[str(tmp_path / "missing.pgn")])
    (tmp_path / "file").write_text("x")
    with pytest.raises(BookBuildError, match="cannot write"):
        build_book(str(tmp_path / "file" / "o.bin"), tsv_files=[str(OPENINGS / "e.tsv")])


def test_pgn_with_broken_games_keeps_the_good_ones(tmp_path):
    pgn = tmp_path / "mixed.pgn"
    pgn.write_text('[Result "1-0"]\n\n1. e4 e5 2. Ke5 1-0\n\n[Result "1-0"]\n\n1. d4 d5 1-0\n\n'
                   '[Variant "Crazyhouse"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n')
    builder = BookBuilder()
    assert builder.add_pgn(str(pgn)) == 1
    assert len(builder.problems) == 2
    assert [raw for _, raw, _ in builder.entries()] == [chess.D4 | chess.D2 << 6]


# -- Debian's polyglot ------------------------------------------------------------

def need_polyglot():
    return require_engine("polyglot")


def test_same_entries_as_polyglot_make_book(tmp_path):
    """Polyglot's make-book applies the same weight rule: both books must hold the same entries."""
    polyglot = need_polyglot()
    games, handle = [], open(OPENINGS / "8moves_v3.pgn", encoding="utf-8")
    with handle:
        for _ in range(300):
            games.append(str(chess.pgn.read_game(handle)))
    pgn = tmp_path / "g.pgn"
    pgn.write_text("\n\n".join(games) + "\n\n" + SAMPLE_PGN.replace(" *", " 1/2-1/2"))
    for max_plies in (None, 7):
        extra = [] if max_plies is None else ["-max-ply", str(max_plies)]
        subprocess.run([polyglot, "make-book", "-pgn", str(pgn), "-bin", str(tmp_path / "pg.bin"),
                        "-min-game", "1", *extra], check=True, capture_output=True, cwd=tmp_path)
        build_book(str(tmp_path / "ours.bin"), pgn_files=[str(pgn)], max_plies=max_plies)
        ours, theirs = read_entries(tmp_path / "ours.bin"), read_entries(tmp_path / "pg.bin")
        assert len(ours) > 500
        # the order of equal-weight moves inside a key is arbitrary in polyglot's output
        assert sorted(ours) == sorted(theirs)


def parse_dump(text, reader):
    """polyglot dump-book lines -> {(key, raw move): percent shown}; every move is checked against our book."""
    shown = {}
    for line in text.splitlines()[1:]:
        body = re.sub(r"\{(trans|cycle)[^}]*\}", "", line.split(":", 1)[1])
        board = chess.Board()
        for token in body.split():
            if re.fullmatch(r"\d+\.", token):
                continue
            san, percent = re.fullmatch(r"([^{]+)(?:\{(\d+)%\})?", token).groups()
            move = board.parse_san(san)
            if percent is not None:
                entries = {e.move: e for e in reader.find_all(board)}
                assert move in entries, f"polyglot shows {san} in {board.fen()}, our book does not have it"
                shown[(entries[move].key, entries[move].raw_move)] = int(percent)
            board.push(move)
    return shown


def test_polyglot_dump_book_reads_back_every_entry(tmp_path):
    """`polyglot dump-book` walks the book from the start position for one colour,
    printing each book move with its share in percent. Every entry of our book
    must show up, with the share its weight implies."""
    polyglot = need_polyglot()
    pgn = tmp_path / "sample.pgn"
    pgn.write_text(SAMPLE_PGN)
    out = tmp_path / "mixed.bin"
    build_book(str(out), pgn_files=[str(pgn)], tsv_files=[str(OPENINGS / "e.tsv")])
    shown = {}
    with chess.polyglot.open_reader(str(out)) as reader:
        for colour in ("white", "black"):
            dump = tmp_path / f"{colour}.txt"
            subprocess.run([polyglot, "dump-book", "-bin", str(out), "-color", colour, "-out", str(dump)],
                           check=True, capture_output=True, cwd=tmp_path)
            shown.update(parse_dump(dump.read_text(), reader))
        totals = defaultdict(int)
        for entry in reader:
            totals[entry.key] += entry.weight
        expected = {(e.key, e.raw_move): round(100 * e.weight / totals[e.key]) for e in reader}
    assert shown == expected
    raw_moves = {raw for _, raw in shown}
    for king, rook in [(chess.E1, chess.H1), (chess.E1, chess.A1), (chess.E8, chess.H8), (chess.E8, chess.A8)]:
        assert rook | king << 6 in raw_moves  # polyglot read our castling entries as castling
    assert (1 << 12) | chess.C1 | chess.B2 << 6 in raw_moves                                   # bxc1=N


# -- command line -------------------------------------------------------------------

def test_cli_build_and_probe(tmp_path, capsys):
    out = tmp_path / "cli.bin"
    args = parser().parse_args(["build", str(out), "--tsv", str(OPENINGS / "a.tsv"), str(OPENINGS / "b.tsv"),
                                "--max-plies", "6"])
    assert book_cli.run(args) == 0
    assert "entries" in capsys.readouterr().out
    assert book_cli.run(parser().parse_args(["probe", str(out)])) == 0
    listing = capsys.readouterr().out
    assert re.search(r"^e2e4\s+e4\s+weight\s+\d+", listing, re.M)
    fen_after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert book_cli.run(parser().parse_args(["probe", str(out), "--fen", fen_after_e4])) == 0
    assert re.search(r"^c7c5\s+c5\s+weight", capsys.readouterr().out, re.M)


def test_cli_errors(tmp_path, capsys):
    assert book_cli.run(parser().parse_args(["build", str(tmp_path / "x.bin")])) == 2
    assert "at least one input" in capsys.readouterr().err
    assert book_cli.run(parser().parse_args(["build", str(tmp_path / "x.bin"), "--pgn", "/no/such.pgn"])) == 1
    assert "cannot read /no/such.pgn" in capsys.readouterr().err
    assert book_cli.run(parser().parse_args(["probe", str(tmp_path / "none.bin")])) == 1
    assert "not found" in capsys.readouterr().err
    (tmp_path / "odd.bin").write_bytes(b"x" * 17)
    assert book_cli.run(parser().parse_args(["probe", str(tmp_path / "odd.bin")])) == 1
    assert "corrupt" in capsys.readouterr().err
    assert book_cli.run(parser().parse_args(["probe", "--fen", "not a fen"])) == 2
    assert "bad FEN" in capsys.readouterr().err
    assert book_cli.run(parser().parse_args([])) == 2


# -- verification by Vireo's own search (engine/book/verify.py) ---------------------

def test_search_verification_drops_a_bad_move_and_weights_by_score():
    # Black to move after 1.e4 e5 2.Nf3: 2...Qh4 loses the queen to Nxh4; 2...d5 is the
    # search's own best move at depth 6 (so its weight keeps the source weight).
    board = chess.Board("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
    d5, qh4 = (encode_move(board, chess.Move.from_uci(m)) for m in ("d7d5", "d8h4"))
    candidates = [(d5, 10), (qh4, 10)]
    verifier = Verifier(depth=6, margin=50)
    kept = verifier.judge_position(board.fen(), candidates)
    assert kept == [(d5, 10)] and (verifier.depth, verifier.margin) == (6, 50)
    assert kept == verifier.judge_position(board.fen(), candidates)   # deterministic
    assert weight_for(1000, 0) == 1000 and weight_for(1000, 20) == 500 and weight_for(3, 200) == 1


def test_a_deeper_recheck_drops_what_depth_8_keeps():
    # From the start position: depth 8 puts 1.h4 about 20 cp behind 1.e4, depth 10 over
    # 40 (Stockfish 15.1 at depth 16: 70). (After 1.d4 Nf6, 2.e4 was the example until the
    # search bundle of issue 65: its deficit now swings 23-54 cp between depths 8 and 12.)
    board = chess.Board()
    e4, d4, h4 = (encode_move(board, chess.Move.from_uci(m)) for m in ("e2e4", "d2d4", "h2h4"))
    candidates = [(e4, 10), (d4, 10), (h4, 10)]
    assert h4 in dict(Verifier(depth=8, margin=50).judge_position(board.fen(), candidates))
    rechecked = Verifier(depth=8, margin=50, recheck_depth=10, recheck_margin=30)
    kept = dict(rechecked.judge_position(board.fen(), candidates))
    assert h4 not in kept and e4 in kept and rechecked.dropped_by_recheck >= 1
    with pytest.raises(ValueError, match="recheck depth"):
        Verifier(depth=8, margin=50, recheck_depth=8)


def test_recheck_options_are_checked(tmp_path, capsys):
    tsv = tmp_path / "a.tsv"
    tsv.write_text("eco\tname\tpgn\nA00\tx\t1. e4 e5\n")
    for argv in (["--recheck-depth", "10"], ["--verify-depth", "8", "--recheck-depth", "6"],
                 ["--verify-depth", "8", "--recheck-depth", "10", "--recheck-margin", "-1"]):
        assert book_cli.run(parser().parse_args(["build", str(tmp_path / "b.bin"), "--tsv", str(tsv)] + argv)) == 2
        assert "--recheck-depth" in capsys.readouterr().err
