"""The search (engine._core.Search): mates, draws, limits, threads, stop, TT.

python-chess is the oracle for legality, checkmate and stalemate. Mate
distances of the WAC positions were verified with Stockfish 15.1 at depth 22.
Node and depth limits keep every search short.
"""
import random
import threading
import time

import chess
import pytest
from conftest import shared_data

from engine._core import (Position, Search, _legality_mismatches, _see, _tt_roundtrip,
                          _tt_torn_entry_check)


@pytest.fixture(scope="module")
def search():
    return Search()


def run(search, fen_or_position, limits, clear=True):
    """(best, ponder, last info line with a score, all info lines)."""
    position = fen_or_position if isinstance(fen_or_position, Position) else Position(fen_or_position)
    if clear:
        search.clear_hash()
    lines = []
    best, ponder = search.go(position, limits, lines.append)
    scored = [line for line in lines if "score" in line]
    return best, ponder, (scored[-1] if scored else None), lines


# ------------------------------------------------------------------ mates

MATES = [
    # (fen, moves to mate for the side to move)
    ("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1),
    ("3r2k1/8/8/8/8/8/5PPP/6K1 b - - 0 1", 1),
    ("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1", 1),
    ("r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - 0 1", 2),   # WAC.004
    ("5k2/6pp/p1qN4/1p1p4/3P4/2PKP2Q/PP3r2/3R4 b - - 0 1", 2),          # WAC.005
    ("7k/pp4np/2p3p1/3pN1q1/3P4/Q7/1r3rPP/2R2RK1 w - - 0 1", 2),        # WAC.027
    ("4kn2/r4p1r/p3bQ2/q1nNP1Np/1p5P/8/PPP3P1/2KR3R w - - 0 1", 2),     # WAC.184
    ("k4r2/1R4pb/1pQp1n1p/3P4/5p1P/3P2P1/r1q1R2K/8 w - - 0 1", 3),      # WAC.050
    ("r3q1kr/ppp5/3p2pQ/8/3PP1b1/5R2/PPP3P1/5RK1 w - - 0 1", 3),        # WAC.057
    ("2Q2n2/2R4p/1p1qpp1k/8/3P3P/3B2P1/5PK1/r7 w - - 0 1", 3),          # WAC.102
    ("7k/1p4p1/7p/3P1n2/4Q3/2P2P2/PP3qRP/7K b - - 0 1", 3),             # WAC.197
    ("r2rb1k1/pp1q1p1p/2n1p1p1/2bp4/5P2/PP1BPR1Q/1BPN2PP/R5K1 w - - 0 1", 4),  # WAC.014
    ("6k1/2pb1r1p/3p1PpQ/p1nPp3/1q2P3/2N2P2/PrB5/2K3RR w - - 0 1", 4),  # WAC.103
    ("3r2k1/p6p/2Q3p1/4q3/2P1p3/P3Pb2/1P3P1P/2K2BR1 b - - 0 1", 4),     # WAC.134
    ("3r3k/3r1P1p/pp1Nn3/2pp4/7Q/6R1/Pq4PP/5RK1 w - - 0 1", 4),         # WAC.161
]


@pytest.mark.parametrize("fen, moves", MATES)
def test_finds_mate_with_the_exact_score(search, fen, moves):
    best, _, info, _ = run(search, fen, {"depth": 30, "mate": moves, "nodes": 3_000_000})
    assert info["score"] == ("mate", moves)
    # The PV mates in exactly that many moves.
    board = chess.Board(fen)
    pv = info["pv"]
    assert pv[0] == best and len(pv) == 2 * moves - 1
    for uci in pv:
        board.push_uci(uci)
    assert board.is_checkmate()


@pytest.mark.parametrize("fen, moves", [m for m in MATES if m[1] >= 2][:6])
def test_side_being_mated_sees_it(search, fen, moves):
    _, _, info, _ = run(search, fen, {"depth": 30, "mate": moves, "nodes": 3_000_000})
    position = Position(fen)
    position.push(info["pv"][0])
    _, _, reply, _ = run(search, position, {"depth": 2 * moves + 4, "nodes": 3_000_000})
    assert reply["score"] == ("mate", -(moves - 1))


def test_mate_scores_survive_the_transposition_table(search):
    # Mate in 3; after two plies of the PV the same (unclear) table must
    # give mate in 2 exactly, from entries stored at other distances to the root.
    fen, moves = MATES[7]
    _, _, info, _ = run(search, fen, {"depth": 12})
    assert info["score"] == ("mate", 3)
    position = Position(fen)
    for uci in info["pv"][:2]:
        position.push(uci)
    for depth in (1, 2, 3, 8):
        _, _, again, _ = run(search, position, {"depth": depth}, clear=False)
        assert again["score"] == ("mate", 2), depth


def test_tt_score_adjustment_round_trips():
    mate = 32000
    for ply in (0, 1, 7, 60):
        for score in (mate - 1, mate - 9, -mate + 4, 31000, -31000, 123, 0, -5):
            assert _tt_roundtrip(score, ply) == score
    # A mate too far to finish before the 50-move rule is no longer a sure mate.
    assert _tt_roundtrip(mate - 30, 5, 80) < 31754
    assert _tt_roundtrip(-mate + 30, 5, 80) > -31754


def test_torn_hash_entries_are_rejected():
    # Threads write an entry's two words without a lock: an entry whose data
    # word came from another write no longer matches its key and reads as a miss.
    assert _tt_torn_entry_check() == (True, False)


def test_checkmated_and_stalemated_roots_have_no_move(search):
    lines = []
    assert search.go(Position("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"), {"depth": 3}, lines.append) == (None, None)
    assert lines[-1]["score"] == ("mate", 0)
    lines.clear()
    assert search.go(Position("7k/8/6QK/8/8/8/8/8 b - - 0 1"), {"depth": 3}, lines.append) == (None, None)
    assert lines[-1]["score"] == ("cp", 0)


# ------------------------------------------------------------------ draws

KQK_STARTS = [
    "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
    "8/8/8/8/8/2k5/8/K6Q w - - 0 1",
    "7k/8/8/8/8/8/8/1Q5K w - - 0 1",
    "8/8/3k4/8/8/8/1Q6/7K b - - 0 1",
    "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1",
    "8/8/8/8/3k4/8/8/R3K3 w - - 0 1",
]


@pytest.mark.parametrize("fen", KQK_STARTS)
def test_converts_a_won_ending_without_stalemate(search, fen):
    board = chess.Board(fen)
    strong = board.turn if len(board.pieces(chess.QUEEN, board.turn) | board.pieces(chess.ROOK, board.turn)) \
        else not board.turn
    search.clear_hash()
    for _ in range(120):
        if board.is_game_over():
            break
        position = Position(board.fen())
        best, _ = search.go(position, {"nodes": 30_000})
        board.push_uci(best)
    assert board.is_checkmate(), board.fen()
    assert board.turn != strong


def test_claims_a_threefold_repetition_when_losing(search):
    # Black is lost (a queen against two rooks, knight and bishop), but Kh4
    # repeats the position a third time: a draw.
    start = "K7/8/8/8/3q3k/8/PPPB1P2/RR4N1 w - - 0 1"
    position = Position(start)
    for uci in "g1f3 h4h5 f3g1 h5h4 g1f3 h4h5 f3g1".split():
        position.push(uci)
    best, _, info, _ = run(search, position, {"nodes": 50_000})
    assert best == "h5h4" and info["score"] == ("cp", 0)
    # Without the history the same position is lost and Kh4 is no draw.
    _, _, fresh, _ = run(search, position.fen(), {"nodes": 50_000})
    assert fresh["score"][1] < -200


def test_avoids_a_threefold_repetition_when_winning(search):
    # White wins; Nf3+ forks king and queen, but with this history it repeats
    # the position a third time. Without the history Nf3+ is the best move.
    start = "K7/8/8/8/3q3k/8/PPPB1P2/RR4N1 w - - 0 1"
    best, _, _, _ = run(search, start, {"nodes": 50_000})
    assert best == "g1f3"
    position = Position(start)
    position.push("g1f3")
    for uci in "h4h5 f3g1 h5h4 g1f3 h4h5 f3g1 h5h4".split():
        position.push(uci)
    best, _, info, _ = run(search, position, {"nodes": 50_000})
    assert best != "g1f3"
    assert info["score"][0] == "mate" or info["score"][1] > 200


def test_fifty_move_rule(search):
    # Halfmove clock 99: any quiet move ends the game drawn ...
    _, _, info, _ = run(search, "8/8/8/4k3/8/8/8/3QK3 w - - 99 80", {"depth": 6})
    assert info["score"] == ("cp", 0)
    # ... unless it mates.
    _, _, info, _ = run(search, "k7/8/1K6/8/8/8/8/2Q5 w - - 99 80", {"depth": 4})
    assert info["score"] == ("mate", 1)
    _, _, info, _ = run(search, "8/8/8/4k3/8/8/8/3QK3 w - - 0 80", {"depth": 6})
    assert info["score"][0] == "mate" or info["score"][1] > 500


def test_insufficient_material_is_a_draw(search):
    _, _, info, _ = run(search, "8/8/4k3/8/8/3B4/8/4K3 w - - 0 1", {"depth": 8})
    assert info["score"] == ("cp", 0)


# ------------------------------------------------------------------ legality

def random_positions(count, seed=12345):
    """FENs along random playouts from the start position (every ply)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board()
        while len(out) < count:
            out.append(board.fen())
            moves = list(board.legal_moves)
            if not moves or board.halfmove_clock >= 100:
                break
            board.push(rng.choice(moves))
    return out


def test_a_legal_move_in_thousands_of_random_positions(search):
    for fen in random_positions(3000):
        board = chess.Board(fen)
        best, ponder = search.go(Position(fen), {"nodes": 40})
        if not any(board.legal_moves):
            assert best is None
            continue
        move = chess.Move.from_uci(best)
        assert board.is_legal(move), fen
        if ponder is not None:
            board.push(move)
            assert board.is_legal(chess.Move.from_uci(ponder)), fen


def test_a_legal_move_in_chess960_positions(search):
    path = shared_data("perft", "chess960.epd")
    rng = random.Random(3)
    fens = [line.split(";")[0].strip() for line in path.read_text().splitlines() if line.strip()][:120]
    for fen in fens:
        board = chess.Board(fen, chess960=True)
        for _ in range(3):
            if not any(board.legal_moves):
                break
            best, _ = search.go(Position(board.fen(), chess960=True), {"nodes": 300})
            assert board.is_legal(chess.Move.from_uci(best)), board.fen()
            board.push(rng.choice(list(board.legal_moves)))
        assert _legality_mismatches(Position(board.fen(), chess960=True)) == [], board.fen()


def test_fast_legality_and_gives_check_agree_with_generation():
    for fen in random_positions(60, seed=7) + [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/2k5/3Pp3/8/8/4K2R b K d3 0 1"]:
        assert _legality_mismatches(Position(fen)) == [], fen


def test_static_exchange_evaluation():
    # Pawn takes a pawn defended by a pawn: even.
    assert _see(Position("4k3/8/3p4/4p3/3P4/8/8/4K3 w - - 0 1"), "d4e5", 0)
    assert not _see(Position("4k3/8/3p4/4p3/3P4/8/8/4K3 w - - 0 1"), "d4e5", 1)
    # Queen takes a defended pawn: loses the queen for a pawn.
    assert not _see(Position("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1"), "e1e5", 0)
    # Rook takes an undefended knight.
    assert _see(Position("4k3/8/8/4n3/8/8/8/4RK2 w - - 0 1"), "e1e5", 300)
    # An x-ray: the rook behind the queen defends e5 through it.
    assert _see(Position("4k3/8/3p4/4p3/8/8/4R3/4QK2 w - - 0 1"), "e2e5", -400)


# ------------------------------------------------------------------ limits

def strip_clock(lines):
    return [{k: v for k, v in line.items() if k not in ("time", "nps")} for line in lines]


def test_go_nodes_is_deterministic(search):
    fen = "r1bqkb1r/pp1n1pp1/4pn1p/4P1B1/Q1Bp4/5N2/PP3PPP/RN2K2R w KQkq - 0 9"
    first = run(search, fen, {"nodes": 30_000})
    n1 = search.nodes
    second = run(search, fen, {"nodes": 30_000})
    assert search.nodes == n1
    assert first[:2] == second[:2]
    assert strip_clock(first[3]) == strip_clock(second[3])


def test_node_limit_is_respected(search):
    run(search, chess.STARTING_FEN, {"nodes": 5000})
    assert 5000 <= search.nodes < 5000 + 200


def test_depth_limit_and_info_fields(search):
    best, ponder, info, lines = run(search, chess.STARTING_FEN, {"depth": 6})
    depths = [line["depth"] for line in lines if "score" in line]
    assert depths[:6] == [1, 2, 3, 4, 5, 6] and max(depths) == 6
    for key in ("depth", "seldepth", "multipv", "score", "bound", "nodes", "nps", "time",
                "hashfull", "tbhits", "pv"):
        assert key in info
    assert info["pv"][0] == best and (len(info["pv"]) < 2 or info["pv"][1] == ponder)
    assert info["seldepth"] >= info["depth"]


def test_multipv_and_searchmoves(search):
    _, _, _, lines = run(search, chess.STARTING_FEN, {"depth": 6, "multipv": 3})
    last = [line for line in lines if "score" in line][-3:]
    assert [line["multipv"] for line in last] == [1, 2, 3]
    assert len({line["pv"][0] for line in last}) == 3
    scores = [line["score"][1] for line in last]
    assert scores == sorted(scores, reverse=True)
    best, _, _, _ = run(search, chess.STARTING_FEN, {"depth": 5, "searchmoves": ["a2a3", "h2h3"]})
    assert best in ("a2a3", "h2h3")
    # Illegal searchmoves are ignored; none legal means all moves.
    best, _, _, _ = run(search, chess.STARTING_FEN, {"depth": 3, "searchmoves": ["e2e5", "zz"]})
    assert chess.Move.from_uci(best) in chess.Board().legal_moves


def test_stop_from_another_thread_is_quick(search):
    result = {}
    worker = threading.Thread(target=lambda: result.update(
        move=search.go(Position(), {"infinite": True})))
    worker.start()
    time.sleep(0.3)
    assert search.searching
    start = time.perf_counter()
    search.stop()
    worker.join(2)
    elapsed = time.perf_counter() - start
    assert not worker.is_alive()
    assert elapsed < 0.1, elapsed
    assert chess.Move.from_uci(result["move"][0]) in chess.Board().legal_moves


def test_no_limit_means_infinite_and_set_limits_ends_it(search):
    result = {}
    worker = threading.Thread(target=lambda: result.update(move=search.go(Position(), {})))
    worker.start()
    time.sleep(0.2)
    assert worker.is_alive()
    search.set_limits(20, 50)       # ponderhit: the time counts from now
    worker.join(2)
    assert not worker.is_alive()
    assert result["move"][0] is not None


@pytest.mark.parametrize("limits", [{"nodes": 1}, {"hard_ms": 0}, {"movetime": 0}, {"depth": 1}])
def test_a_move_even_when_stopped_at_once(search, limits):
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    best, _, _, _ = run(search, fen, limits)
    assert chess.Move.from_uci(best) in chess.Board(fen).legal_moves


def test_stop_from_the_info_callback(search):
    lines = []

    def on_info(info):
        lines.append(info)
        search.stop()

    best, _ = search.go(Position(), {"infinite": True}, on_info)
    assert chess.Move.from_uci(best) in chess.Board().legal_moves


def test_time_limits(search):
    start = time.perf_counter()
    search.go(Position(), {"movetime": 150})
    assert 0.1 < time.perf_counter() - start < 0.4
    start = time.perf_counter()
    search.go(Position(), {"soft_ms": 50, "hard_ms": 2000})
    assert time.perf_counter() - start < 1.0


def test_callback_errors_reach_the_caller(search):
    def broken(info):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        search.go(Position(), {"depth": 5}, broken)
    assert not search.searching


@pytest.mark.parametrize("limits", [{"depth": 0}, {"nodes": -1}, {"depth": "3"}, {"bogus": 1},
                                    {"searchmoves": "e2e4"}, {"multipv": 0}])
def test_bad_limits_are_value_errors(search, limits):
    with pytest.raises(ValueError):
        search.go(Position(), limits)


# ------------------------------------------------------------------ table, threads

def test_hash_resize_failure_keeps_the_old_table():
    search = Search()
    search.set_hash(2)
    run(search, chess.STARTING_FEN, {"depth": 8}, clear=False)
    assert search.hashfull() > 0
    with pytest.raises(MemoryError):
        search.set_hash(1 << 30)      # a petabyte
    assert search.hash_mb == 2
    assert search.hashfull() > 0      # old entries still there
    best, _ = search.go(Position(), {"depth": 4})
    assert best is not None
    for bad in (0, -1, 1.5, "16", True):
        with pytest.raises(ValueError):
            search.set_hash(bad)


def test_clear_hash_empties_the_table():
    search = Search()
    search.set_hash(1)
    run(search, chess.STARTING_FEN, {"nodes": 200_000}, clear=False)
    assert search.hashfull() > 0
    search.clear_hash()
    assert search.hashfull() == 0


def test_two_threads_search_and_agree_on_mates():
    search = Search()
    search.set_threads(2)
    assert search.threads == 2
    fen, moves = MATES[7]
    best, _, info, _ = run(search, fen, {"depth": 30, "mate": moves, "nodes": 3_000_000})
    assert info["score"] == ("mate", moves)
    best, _, info, _ = run(search, chess.STARTING_FEN, {"nodes": 200_000})
    assert search.nodes >= 200_000
    assert chess.Move.from_uci(best) in chess.Board().legal_moves
    search.set_threads(1)
    for bad in (0, 257, "2"):
        with pytest.raises(ValueError):
            search.set_threads(bad)


def test_tablebase_probes_are_counted_and_stay_below_mate(search):
    calls = []

    def probe(fen):
        calls.append(fen)
        board = chess.Board(fen)
        # K+R vs K: a win for the rook's side, a loss for the other.
        return 2 if board.pieces(chess.ROOK, board.turn) else -2

    search.set_tablebase(probe, 0, 3)
    try:
        # Black's last pawn can be taken: after Rxh5 it is K+R vs K.
        _, _, info, _ = run(search, "8/8/8/7p/8/2k5/8/K6R w - - 0 1", {"depth": 6})
    finally:
        search.set_tablebase(None)
    assert calls and info["tbhits"] > 0
    kind, value = info["score"]
    assert (kind == "cp" and 19000 < value < 20000) or (kind == "mate" and value > 0)
    assert all(chess.Board(fen).halfmove_clock == 0 and len(chess.Board(fen).piece_map()) <= 3
               for fen in calls)
