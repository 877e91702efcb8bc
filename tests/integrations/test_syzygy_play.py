"""Syzygy through the real engine: won endgames converted, draws held, probes reported.

The engine runs as `python -m engine` (UCI, driven by python-chess) with
SyzygyPath = ../shared/data/syzygy (every 3- and 4-piece table). The referee
is python-chess's own chess.syzygy, independent of the engine's code:

  * every move the engine plays from a won position keeps the win (WDL), from a
    drawn one keeps at least the draw;
  * won games end in checkmate before the halfmove clock reaches 100, i.e.
    within the 50-move rule (a claimable draw - repetition, 50 moves - fails);
  * every move the engine plays in the tables reports tbhits > 0.

Opponents: the engine itself (one process playing both sides, the defender
also probing the tables, so it defends as long as possible) and Fairy-Max
(Debian, xboard). Fairy-Max declares setboard=0, but its xboard edit mode takes
any position: xboard_edit.py turns python-chess's setboard into that.

The won positions were found by sampling random positions
(engine.tools.syzygy_bench.random_endgame) and keeping those with the longest
DTZ; some start with a halfmove clock that leaves only a few plies of slack,
so the engine must make progress, not just keep the win.
"""
import os
import shutil

import chess
import chess.engine
import chess.syzygy
import pytest

from conftest import require_engine, shared_data
from uci_real_engine import RawEngine, popen_uci
from xboard_edit import popen_xboard_edit

VIREO_LIMIT = chess.engine.Limit(time=0.05)      # movetime 50: the tables, not the search, make the plan
FAIRYMAX_LIMIT = chess.engine.Limit(depth=6)     # a few ms per move; enough to run from the mating net
MAX_PLIES = 200                                  # two 50-move periods: a longer game has already failed
DRAW_PLIES = 40

# (material, FEN of a won position with the winner to move); DTZ from chess.syzygy.
WINS = [
    ("KQvK", "K7/8/8/8/8/6k1/8/1Q6 w - - 0 1"),               # DTZ 17
    ("KRvK", "8/6r1/8/8/3K4/8/8/k7 b - - 0 1"),               # DTZ 31, Black wins
    ("KBNvK", "K3B3/2k5/8/8/8/8/8/7N w - - 30 1"),            # DTZ 64 + clock 30 = 94 of 100
    ("KQvKR", "8/8/8/8/8/2KR3q/8/k7 b - - 36 1"),             # DTZ 59 + clock 36 = 95, Black wins
    ("KPvK", "8/8/k7/8/8/3P4/8/2K5 w - - 0 1"),               # DTZ 15, then KQvK
]
# Drawn positions where most moves lose (in brackets: losing / legal moves).
DRAWS = [
    ("KRvKR", "7K/5k2/8/8/4R3/r7/8/8 w - - 0 1"),      # 13/15
    ("KPvKP", "8/8/8/8/1k6/1p2K3/2P5/8 w - - 0 1"),    # 10/11
    ("KRvKN", "8/8/3K1n2/8/1k6/8/5R2/8 b - - 0 1"),    # 14/15, then the knight must stay near its king
    ("KPvK", "K7/8/8/8/8/8/P3k3/8 b - - 0 1"),         # 7/8
    ("KQvKP", "K5Q1/8/8/8/8/4k3/p7/8 b - - 0 1"),      # 11/12, the rook's pawn draws
]
KQK = "K7/8/8/8/8/6k1/8/1Q6 w - - 0 1"
FIVE_MEN = "8/5k2/8/4P3/3r4/8/3R4/4K3 w - - 0 1"   # not in the tables; captures lead into them


@pytest.fixture(scope="module")
def syzygy_dir():
    return shared_data("syzygy")


@pytest.fixture(scope="module")
def oracle(syzygy_dir):
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tables:
        yield tables


@pytest.fixture(scope="module")
def vireo(syzygy_dir):
    engine = popen_uci()
    engine.configure({"SyzygyPath": str(syzygy_dir), "OwnBook": False})
    yield engine
    engine.quit()


def vireo_player(engine):
    def move(board, game):
        played = engine.play(board, VIREO_LIMIT, game=game, info=chess.engine.INFO_BASIC)
        return played.move, played.info
    return move


def fairymax_player(engine):
    def move(board, game):
        return engine.play(board, FAIRYMAX_LIMIT, game=game).move, {}
    return move


def is_over(board):
    """Mate, stalemate, no mating material, or a draw that is there to claim now: a third
    repetition or 100 plies without a capture or pawn move. (python-chess's claim_draw
    also counts a repetition the side to move could make with its next move.)"""
    return board.is_game_over() or board.is_repetition(3) or board.is_fifty_moves()


def result_for_mover(oracle, board):
    """After a move: what it gave the side that made it, 2 win, 0 draw, -2 loss (WDL scale)."""
    if board.is_checkmate():
        return 2
    if is_over(board):
        return 0
    return -oracle.probe_wdl(board)


def play(board, players, vireo_colors, oracle, max_plies):
    """Plays from `board` (moves pushed onto it); returns the referee's complaints about Vireo."""
    game = object()
    complaints = []
    while not is_over(board) and len(board.move_stack) < max_plies:
        mover = board.turn
        before = oracle.probe_wdl(board)
        move, info = players[mover](board, game)
        assert move in board.legal_moves, f"illegal move {move} in {board.fen()}"
        fen = board.fen()
        board.push(move)
        if mover not in vireo_colors:
            continue
        after = result_for_mover(oracle, board)
        if before == 2 and after != 2:
            complaints.append(f"{move} in {fen} spoils the win (WDL {after} after it)")
        elif -1 <= before <= 1 and after == -2:
            complaints.append(f"{move} in {fen} loses a drawn position")
        if not info.get("tbhits"):
            complaints.append(f"no tbhits reported for {move} in {fen}: {info}")
    return complaints


def check_conversion(board, attacker, complaints):
    line = chess.Board(board.root().fen()).variation_san(board.move_stack)
    assert not complaints, "\n".join(complaints) + "\n" + line
    assert board.is_checkmate() and board.turn != attacker, f"no mate: {line}"
    replay = board.root()
    for move in board.move_stack[:-1]:
        replay.push(move)
        assert replay.halfmove_clock < 100, f"50-move rule reached at {replay.fen()}: {line}"


@pytest.mark.parametrize("material,fen", WINS, ids=[m for m, _ in WINS])
def test_converts_against_itself(vireo, oracle, material, fen):
    board = chess.Board(fen)
    assert oracle.probe_wdl(board) == 2 and oracle.probe_dtz(board) + board.halfmove_clock <= 95
    attacker = board.turn
    me = vireo_player(vireo)
    complaints = play(board, {chess.WHITE: me, chess.BLACK: me}, {attacker}, oracle, MAX_PLIES)
    check_conversion(board, attacker, complaints)


@pytest.mark.parametrize("material,fen", WINS, ids=[m for m, _ in WINS])
def test_converts_against_fairymax(vireo, oracle, material, fen):
    fairymax = popen_xboard_edit(require_engine("fairymax"))
    try:
        board = chess.Board(fen)
        attacker = board.turn
        players = {attacker: vireo_player(vireo), not attacker: fairymax_player(fairymax)}
        complaints = play(board, players, {attacker}, oracle, MAX_PLIES)
    finally:
        fairymax.quit()
    check_conversion(board, attacker, complaints)


@pytest.mark.parametrize("material,fen", DRAWS, ids=[m for m, _ in DRAWS])
def test_holds_draws_against_itself(vireo, oracle, material, fen):
    board = chess.Board(fen)
    assert oracle.probe_wdl(board) == 0
    me = vireo_player(vireo)
    complaints = play(board, {chess.WHITE: me, chess.BLACK: me}, {chess.WHITE, chess.BLACK}, oracle, DRAW_PLIES)
    line = chess.Board(fen).variation_san(board.move_stack)
    assert not complaints, "\n".join(complaints) + "\n" + line
    assert not board.is_checkmate(), line


def search_lines(raw, fen, go="go depth 8"):
    """Sends a search; returns its output lines up to and including bestmove."""
    start = len(raw.seen)
    raw.send(f"position fen {fen}")
    raw.send(go)
    raw.expect("bestmove", timeout=30)
    return [line for _, line in raw.seen[start:]]


def tbhits_of(line):
    return int(line.split(" tbhits ")[1].split()[0]) if " tbhits " in line else 0


def test_in_search_probes_find_the_won_capture_and_count_as_tbhits(syzygy_dir, oracle):
    raw = RawEngine()
    try:
        raw.handshake()
        raw.send(f"setoption name SyzygyPath value {syzygy_dir}")
        assert "Syzygy: " in raw.expect("info string")[1]
        lines = search_lines(raw, FIVE_MEN)
    finally:
        raw.close()
    # five pieces: no root ranking, so every hit comes from the core's callback
    assert not any("tablebase root" in line for line in lines)
    final = [line for line in lines if line.startswith("info depth")][-1]
    assert tbhits_of(final) > 0, final
    # Rxd4 leaves KRPvK, won: the probe's score is a tablebase win, reported below mates
    kind, value = final.split(" score ")[1].split()[:2]
    assert kind == "cp" and 19000 < int(value) < 20000, final
    board = chess.Board(FIVE_MEN)
    board.push_uci(lines[-1].split()[1])
    assert oracle.probe_wdl(board) == -2, lines[-1]


def assert_plays_without_tables(raw, message_part):
    message = raw.expect("info string")[1]
    assert message_part in message and "playing without tablebases" in message, message
    lines = search_lines(raw, KQK)
    assert not any("tablebase root" in line for line in lines)
    infos = [line for line in lines if line.startswith("info depth")]
    assert infos and all(tbhits_of(line) == 0 for line in infos) and " score " in infos[-1]
    best = chess.Move.from_uci(lines[-1].split()[1])
    assert best in chess.Board(KQK).legal_moves


def test_a_wrong_directory_is_reported_and_the_engine_plays_on(tmp_path):
    raw = RawEngine()
    try:
        raw.handshake()
        missing = tmp_path / "no-such-dir"
        raw.send(f"setoption name SyzygyPath value {missing}")
        assert_plays_without_tables(raw, f"Syzygy directory not found: {missing}")
    finally:
        raw.close()


def test_a_folder_without_tables_is_reported_and_the_engine_plays_on(tmp_path):
    (tmp_path / "README.txt").write_text("not a tablebase\n")
    raw = RawEngine()
    try:
        raw.handshake()
        raw.send(f"setoption name SyzygyPath value {tmp_path}")
        assert_plays_without_tables(raw, f"no Syzygy tables (*.rtbw, *.rtbz) in {tmp_path}")
    finally:
        raw.close()


def test_missing_tables_leave_the_search_to_itself(syzygy_dir, tmp_path):
    """Only KQvKR's own tables: the root's children (KQvK after Qxr) are missing, so the
    root cannot be ranked, and the in-search probes there fail: the engine searches on."""
    for suffix in (".rtbw", ".rtbz"):
        shutil.copy(syzygy_dir / f"KQvKR{suffix}", tmp_path)
    fen = "8/8/8/3rk3/8/8/8/KQ6 w - - 0 1"
    raw = RawEngine()
    try:
        raw.handshake()
        raw.send(f"setoption name SyzygyPath value {tmp_path}")
        assert "Syzygy: 1 WDL and 1 DTZ tables" in raw.expect("info string")[1]
        lines = search_lines(raw, fen, "go depth 6")
        assert not any("error" in line or "tablebase root" in line for line in lines), lines
        best = chess.Move.from_uci(lines[-1].split()[1])
        assert best in chess.Board(fen).legal_moves
        # the engine still uses what it has: the good half of a mixed path
        raw.send(f"setoption name SyzygyPath value {tmp_path / 'missing'}{os.pathsep}{syzygy_dir}")
        assert "Syzygy directory not found" in raw.expect("info string")[1]
        assert "Syzygy: 35 WDL" in raw.expect("info string")[1]
        lines = search_lines(raw, KQK, "go depth 4")
        assert any("tablebase root" in line for line in lines)
    finally:
        raw.close()
