"""The core's integer inference equals the trainer's quantized forward pass
(network_file.reference_eval) exactly, on thousands of positions: random
playouts and the shared self-play positions, several hidden sizes, both
activations, saturated clips, wrapped int16 accumulators, both output-sum
paths (int32 lanes and int64) and extreme quantization constants."""
import random

import chess
import pytest

from engine._core import Position
from engine.tools.nnue import network_file as nf
from nnue_nets import custom_network, load, nnue_code, no_network, output_sum_bound  # noqa: F401

NETWORKS = {
    "screlu-16": lambda: nf.random_network(16, nf.SCRELU, seed=1),
    "crelu-32": lambda: nf.random_network(32, nf.CRELU, seed=2),
    "screlu-256": lambda: nf.random_network(256, nf.SCRELU, seed=3),
    "crelu-128-int64": lambda: custom_network(128, nf.CRELU, 4, out=32767),
    "screlu-64-wrapping": lambda: custom_network(64, nf.SCRELU, 5, weight=3000, out=32767, bias=(-32768, 32767)),
    "screlu-48-tiny-output": lambda: custom_network(48, nf.SCRELU, 6, out=3),
    "screlu-32-big-qa": lambda: custom_network(32, nf.SCRELU, 7, weight=4000, qa=40000, qb=1, scale=2**31 - 1),
    "crelu-16-odd-constants": lambda: custom_network(16, nf.CRELU, 8, qa=181, qb=3, scale=977),
    "screlu-64-8-buckets": lambda: nf.random_network(64, nf.SCRELU, seed=9, buckets=8),
    "crelu-32-3-buckets-int64": lambda: custom_network(32, nf.CRELU, 10, out=32767, buckets=3),
    "screlu-16-16-buckets": lambda: nf.random_network(16, nf.SCRELU, seed=15, buckets=16),
    "screlu-32-wide-output": lambda: custom_network(32, nf.SCRELU, 16, out=200),
    # king buckets (version 3): mirroring alone, 4 and 16 buckets, with output buckets
    "screlu-16-king-1": lambda: nf.random_network(16, nf.SCRELU, seed=50, king_buckets=1),
    "screlu-48-king-4-8-buckets": lambda: nf.random_network(48, nf.SCRELU, seed=51, buckets=8, king_buckets=4),
    "crelu-32-king-16": lambda: nf.random_network(32, nf.CRELU, seed=52, king_buckets=16),
    "screlu-256-king-8": lambda: nf.random_network(256, nf.SCRELU, seed=53, king_buckets=8),
}


def playout_boards(count, seed):
    """Positions along random games (captures preferred, so endgames come too)."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < count:
        board = chess.Board()
        for _ in range(160):
            moves = list(board.legal_moves)
            if not moves:
                break
            captures = [m for m in moves if board.is_capture(m) or m.promotion]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
            boards.append(board.copy(stack=False))
    return boards[:count]


def test_every_output_path_is_exercised():
    """int64 sums, int32 sums, and (SCReLU) int16 products v * w summed into int32."""
    paths = set()
    for make in NETWORKS.values():
        net = make()
        clip = min(net.qa, 32767)
        if output_sum_bound(net) >= 2**31:
            paths.add("int64")
        elif net.activation == nf.SCRELU and clip * int(abs(net.output_weights.astype(int)).max()) <= 32767:
            paths.add("int16 products")
        else:
            paths.add("int32" if net.activation == nf.CRELU else "int32 screlu")
    assert paths == {"int64", "int32", "int32 screlu", "int16 products"}


@pytest.mark.parametrize("name", sorted(NETWORKS))
def test_equals_reference_on_playouts(tmp_path, no_network, nnue_code, name):
    net = NETWORKS[name]()
    load(tmp_path, net)
    saturated = 0
    for board in playout_boards(300, seed=sorted(NETWORKS).index(name)):
        position = Position(board.fen())
        expected = nf.reference_eval(net, board)
        assert position.nnue_eval_full() == expected, board.fen()
        assert position.nnue_eval() == expected, board.fen()
        white, _ = position.nnue_accumulators(full=True)
        # (a QA above the int16 range has no upper clip to reach)
        saturated += any(v < 0 for v in white) and (net.qa > 32767 or any(v > net.qa for v in white))
    assert saturated > 0        # the clip is reached on both sides somewhere


def boards_of_every_size(seed):
    """Boards with every piece count from 32 down to 2 (pieces taken off the
    start position at random, kings kept): every output bucket is reached."""
    rng = random.Random(seed)
    board, boards = chess.Board(), []
    while len(board.piece_map()) > 2:
        boards.append(board.copy())
        square = rng.choice([s for s, p in board.piece_map().items() if p.piece_type != chess.KING])
        board.remove_piece_at(square)
        board.castling_rights = board.clean_castling_rights()
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
    boards.append(board.copy())
    return [b for b in boards if b.is_valid()]


@pytest.mark.parametrize("buckets", [1, 5, 8, 16])
def test_every_output_bucket_equals_reference(tmp_path, no_network, nnue_code, buckets):
    net = nf.random_network(32, nf.SCRELU, seed=40 + buckets, buckets=buckets)
    load(tmp_path, net)
    used = set()
    for seed in range(6):
        for board in boards_of_every_size(seed):
            used.add(nf.output_bucket(len(board.piece_map()), buckets))
            position = Position(board.fen())
            assert position.nnue_eval() == nf.reference_eval(net, board), board.fen()
            assert position.nnue_eval_full() == nf.reference_eval(net, board), board.fen()
    assert used == set(range(buckets))


def test_output_buckets_split_the_piece_counts_evenly():
    assert [nf.output_bucket(n, 8) for n in range(2, 33)] == [n // 4 for n in range(0, 31)]
    assert {nf.output_bucket(n, 1) for n in range(2, 33)} == {0}
    assert [nf.output_bucket(n, 16) for n in (2, 3, 4, 31, 32)] == [0, 0, 1, 14, 15]


def test_equals_reference_on_shared_positions(tmp_path, no_network, data_fens):
    nets = [nf.random_network(32, nf.SCRELU, seed=11), custom_network(64, nf.CRELU, 12, out=32767)]
    for net in nets:
        load(tmp_path, net)
        for fen in data_fens[:1500]:
            assert Position(fen).nnue_eval() == nf.reference_eval(net, chess.Board(fen)), fen


def test_accumulator_values_equal_reference(tmp_path, no_network, nnue_code):
    net = nf.random_network(48, nf.SCRELU, seed=13)
    load(tmp_path, net)
    for board in playout_boards(40, seed=14):
        white, black = nf.board_features(board)
        position = Position(board.fen())
        assert position.nnue_accumulators() == [nf.accumulator(net, white).tolist(),
                                                nf.accumulator(net, black).tolist()]


def test_search_reads_the_network_at_the_classical_scale(tmp_path, no_network, data_fens):
    # The search's static evaluation is the network's output times 4/5,
    # truncated toward zero (so a position and its mirror read the same
    # magnitude) and kept inside +-30000 (networks with huge outputs).
    for net in (nf.random_network(32, nf.SCRELU, seed=17), custom_network(32, nf.SCRELU, 18, out=32767)):
        load(tmp_path, net)
        seen = set()
        for fen in data_fens[:500]:
            position = Position(fen)
            raw = position.nnue_eval()
            expected = max(-30000, min(30000, int(raw * 4 / 5)))
            assert position.nnue_search_eval() == expected, fen
            seen.add((raw > 0) - (raw < 0))
        assert seen == {-1, 1}
