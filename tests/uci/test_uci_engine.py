"""End to end: the real engine (`python -m engine`) driven by real UCI clients.

python-chess's chess.engine is an independent UCI implementation: if it can
configure, play, analyse, ponder and stop Vireo, GUIs can too. A raw pipe
measures latencies and checks the extensions and bad input.
"""
import logging
import statistics
import subprocess
import sys
import time

import chess
import chess.engine
import chess.polyglot
import pytest

from conftest import shared_data
from uci_real_engine import REPO, RawEngine, engine_env, popen_uci

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 9"
KQK = "8/8/8/4k3/8/8/8/4K2Q w - - 0 1"
ALL_OPTIONS = {"Hash", "Clear Hash", "Threads", "MultiPV", "Ponder", "Move Overhead", "UCI_Chess960",
               "UCI_ShowWDL", "UCI_LimitStrength", "UCI_Elo", "OwnBook", "BookFile", "BookDepth", "UCI_AnalyseMode",
               "BookMode", "SyzygyPath", "SyzygyProbeDepth", "SyzygyProbeLimit", "Syzygy50MoveRule",
               "EvalFile", "Use NNUE"}


@pytest.fixture
def uci():
    engine = popen_uci()
    yield engine
    engine.quit()


@pytest.fixture
def raw():
    engine = RawEngine()
    engine.handshake()
    yield engine
    engine.close()
    stdout = [line for _, line in engine.seen]
    assert not any("Traceback" in line for line in stdout)


# -- python-chess ----------------------------------------------------------------

def test_handshake_and_every_option_through_python_chess(uci):
    """python-chess can declare and send every option (what each one does is
    tested one by one in test_uci_option_effects.py)."""
    assert uci.id["name"].startswith("Vireo")
    assert set(uci.options) == ALL_OPTIONS
    # python-chess manages MultiPV, Ponder and UCI_Chess960 itself (tested below).
    uci.configure({
        "Hash": 32, "Clear Hash": None, "Threads": 2, "Move Overhead": 30, "UCI_ShowWDL": True,
        "UCI_LimitStrength": True, "UCI_Elo": 2000, "OwnBook": True, "BookFile": "",
        "BookDepth": 8, "BookMode": "best", "SyzygyPath": str(shared_data("syzygy")),
        "SyzygyProbeDepth": 2, "SyzygyProbeLimit": 5, "Syzygy50MoveRule": False,
    })
    uci.ping()
    board = chess.Board(MIDDLEGAME)
    result = uci.play(board, chess.engine.Limit(white_clock=5, black_clock=5))
    assert result.move in board.legal_moves
    uci.configure({"UCI_LimitStrength": False, "Threads": 1})
    result = uci.play(board, chess.engine.Limit(depth=4))
    assert result.move in board.legal_moves


def test_play_a_few_moves(uci):
    board = chess.Board()
    game = object()
    for _ in range(6):
        result = uci.play(board, chess.engine.Limit(time=0.05), game=game, info=chess.engine.INFO_ALL)
        assert result.move in board.legal_moves
        board.push(result.move)


def test_analyse_with_multipv_and_wdl(uci):
    uci.configure({"UCI_ShowWDL": True})
    infos = uci.analyse(chess.Board(MIDDLEGAME), chess.engine.Limit(depth=6), multipv=3)
    assert len(infos) == 3
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3
    assert all(info["depth"] >= 6 and "score" in info and "wdl" in info for info in infos)
    # MultiPV lines come best first
    scores = [info["score"].relative.score(mate_score=100000) for info in infos]
    assert scores == sorted(scores, reverse=True)


def test_ponder_and_ponderhit(uci, caplog):
    caplog.set_level(logging.DEBUG, logger="chess.engine")
    board = chess.Board(MIDDLEGAME)
    game = object()
    limit = chess.engine.Limit(white_clock=3, black_clock=3, white_inc=0.05, black_inc=0.05)
    hits = 0
    for _ in range(4):
        result = uci.play(board, limit, game=game, ponder=True)
        assert result.move in board.legal_moves
        board.push(result.move)
        if result.ponder is None or board.is_game_over():
            break
        board.push(result.ponder)       # the opponent plays the expected move: a ponderhit
        hits += 1
    sent = [r.getMessage() for r in caplog.records if "<<" in r.getMessage()]
    assert hits >= 2
    assert sum(message.endswith("ponderhit") for message in sent) >= hits - 1
    assert any("go ponder" in message for message in sent)


def test_stop_during_infinite_analysis(uci):
    with uci.analysis(chess.Board(MIDDLEGAME)) as analysis:
        deadline = time.monotonic() + 10
        for info in analysis:
            if info.get("depth", 0) >= 4 or time.monotonic() > deadline:
                break
        started = time.monotonic()
        analysis.stop()
        best = analysis.wait()
        stop_latency = time.monotonic() - started
    assert best.move in chess.Board(MIDDLEGAME).legal_moves
    assert stop_latency < 0.5


def test_chess960_game_moves(uci):
    board = chess.Board.from_chess960_pos(518 - 100)
    game = object()
    for _ in range(8):
        result = uci.play(board, chess.engine.Limit(nodes=2000), game=game)
        assert result.move in board.legal_moves
        board.push(result.move)


# -- raw pipe: latencies, extensions, wiring ---------------------------------------

def test_isready_and_stop_latency_mid_search(raw):
    raw.send("setoption name Threads value 1")
    raw.send(f"position fen {MIDDLEGAME}")
    raw.send("go infinite")
    raw.expect("info depth")
    ready = []
    for _ in range(20):
        time.sleep(0.05)
        sent = raw.send("isready")
        arrived, _ = raw.expect("readyok")
        ready.append((arrived - sent) * 1000)
    sent = raw.send("stop")
    arrived, line = raw.expect("bestmove")
    stop_ms = (arrived - sent) * 1000
    assert chess.Move.from_uci(line.split()[1]) in chess.Board(MIDDLEGAME).legal_moves
    print(f"\nisready mid-search: median {statistics.median(ready):.2f} ms, max {max(ready):.2f} ms; "
          f"stop -> bestmove: {stop_ms:.2f} ms")
    assert max(ready) < 50 and stop_ms < 50


def test_quit_mid_search_is_prompt(raw):
    raw.send(f"position fen {MIDDLEGAME}")
    raw.send("go infinite")
    raw.expect("info depth")
    started = time.monotonic()
    raw.send("quit")
    raw.proc.wait(timeout=5)
    assert time.monotonic() - started < 1.0
    assert raw.proc.returncode == 0


def test_ponderhit_switches_to_the_clock(raw):
    raw.send(f"position fen {MIDDLEGAME}")
    raw.send("go ponder wtime 1000 btime 1000")
    time.sleep(0.3)
    assert not any(line.startswith("bestmove") for line in raw.drain(0))
    sent = raw.send("ponderhit")
    arrived, _ = raw.expect("bestmove", timeout=2)
    assert arrived - sent < 1.0 - 0.02


def test_movestogo_one_and_tiny_clocks_keep_within_time(raw):
    raw.send(f"position fen {MIDDLEGAME}")
    for wtime, extra in ((1000, "movestogo 1"), (50, ""), (15, "winc 10 binc 10"), (1000, "winc 10 binc 10")):
        sent = raw.send(f"go wtime {wtime} btime {wtime} {extra}")
        arrived, line = raw.expect("bestmove")
        assert (arrived - sent) * 1000 < wtime, (wtime, extra)
        assert chess.Move.from_uci(line.split()[1]) in chess.Board(MIDDLEGAME).legal_moves


def test_bad_input_is_named_and_the_engine_serves_on(raw):
    raw.send("position startpos moves e2e4 e7e5")
    for bad, fragment in (("position startpos moves e2e4 e7e4", "position unchanged"),
                          ("position fen 8/8/8/8 w - - 0 1", "bad FEN"),
                          ("setoption name Hash value -3", "out of range"),
                          ("setoption name NoSuch value 1", "unknown option"),
                          ("setoption name Threads value many", "takes an integer"),
                          ("frobnicate", "unknown command"),
                          ("go depth banana movetime 100", "not an integer")):
        raw.send(bad)
        assert fragment in raw.expect("info string")[1]
    raw.expect("bestmove")  # from the `go depth banana`, searched without the bad limit
    raw.send("d")
    assert raw.expect("Fen: ")[1] == "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"


def test_extensions_d_eval_perft_and_stopping_perft(raw):
    raw.send("position startpos moves e2e4")
    raw.send("d")
    key = chess.polyglot.zobrist_hash(chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"))
    assert raw.expect("Key: ")[1] == f"Key: {key:016X}"
    raw.send("eval")
    raw.expect("Final evaluation:")
    raw.send("go perft 3")
    assert raw.expect("Nodes searched:")[1] == "Nodes searched: 13160"
    raw.send("go perft 9")
    time.sleep(0.2)
    sent = raw.send("stop")
    arrived, _ = raw.expect("info string perft 9 stopped")
    assert arrived - sent < 0.5


def test_book_move_is_played_at_once(raw):
    raw.send("setoption name OwnBook value true")
    raw.send("setoption name BookMode value best")
    raw.send("position startpos")
    sent = raw.send("go wtime 60000 btime 60000")
    raw.expect("info string book move")
    arrived, line = raw.expect("bestmove")
    assert chess.Move.from_uci(line.split()[1]) in chess.Board().legal_moves
    assert arrived - sent < 0.5


def test_tablebase_root_score_is_reported(raw):
    raw.send(f"setoption name SyzygyPath value {shared_data('syzygy')}")
    raw.send(f"position fen {KQK}")
    raw.send("go depth 6")
    raw.expect("info string tablebase root")
    _, info = raw.expect("info depth")
    assert "tbhits" in info and int(info.split("tbhits ")[1].split()[0]) > 0
    kind, value = info.split("score ")[1].split()[:2]
    assert kind == "mate" and int(value) > 0 or kind == "cp" and int(value) > 19000
    raw.expect("bestmove")


def test_limit_strength_uses_its_plan(raw):
    raw.send("setoption name UCI_LimitStrength value true")
    raw.send("setoption name UCI_Elo value 1200")
    raw.send(f"position fen {MIDDLEGAME}")
    raw.send("go wtime 10000 btime 10000")
    assert "UCI_LimitStrength: Elo 1200" in raw.expect("info string UCI_LimitStrength")[1]
    _, line = raw.expect("bestmove")
    assert chess.Move.from_uci(line.split()[1]) in chess.Board(MIDDLEGAME).legal_moves


def test_bench_command_gives_the_signature(raw):
    """`bench 3` through UCI counts exactly the nodes that the bench module counts."""
    from engine.uci.bench import run_bench
    expected, _, _ = run_bench(depth=3)
    raw.send("bench 3")
    _, line = raw.expect("Nodes searched", timeout=120)
    assert int(line.split(":")[1]) == expected


# -- launchers ---------------------------------------------------------------------

def test_shell_launcher_speaks_uci():
    launcher = REPO / "uci" / "vireo"
    env = engine_env()
    env["VIREO_PYTHON"] = sys.executable
    done = subprocess.run([str(launcher)], input=b"uci\nisready\nposition startpos\ngo depth 2\n",
                          capture_output=True, env=env, timeout=60)
    lines = done.stdout.decode().splitlines()
    assert "uciok" in lines and "readyok" in lines and lines[-1].startswith("bestmove")


def test_polyglot_adapter_plays_vireo_as_an_xboard_engine(tmp_path):
    from conftest import require_engine
    polyglot = require_engine("polyglot")
    # The shipped ini, with the engine command pointed at this checkout's launcher.
    ini = (REPO / "uci" / "polyglot.ini").read_text()
    ini = ini.replace("EngineDir = .", f"EngineDir = {REPO / 'uci'}").replace("EngineCommand = vireo",
                                                                             "EngineCommand = ./vireo")
    (tmp_path / "vireo.ini").write_text(ini)
    env = engine_env()
    env["VIREO_PYTHON"] = sys.executable
    engine = chess.engine.SimpleEngine.popen_xboard([polyglot, str(tmp_path / "vireo.ini")],
                                                    env=env, cwd=str(tmp_path))
    try:
        board = chess.Board()
        for _ in range(4):
            result = engine.play(board, chess.engine.Limit(time=0.2))
            assert result.move in board.legal_moves
            board.push(result.move)
    finally:
        engine.quit()
