"""The `EvalFile` and `Use NNUE` options end to end, through python-chess's
UCI client and a raw pipe (for the info strings), and `vireo bench --nnue`."""
import re

import chess
import chess.engine

from engine.tools.nnue import network_file as nf
from uci_real_engine import RawEngine, popen_uci
from test_bench import vireo


def write(tmp_path, name="net.nnue", hidden=32, seed=41):
    path = tmp_path / name
    nf.write_network(path, nf.random_network(hidden, nf.SCRELU, seed=seed))
    return path


def test_options_are_declared_with_the_network_on():
    with popen_uci() as engine:
        assert engine.options["EvalFile"].type == "string"
        assert engine.options["EvalFile"].default in ("", "<empty>")   # UCI writes an empty default so
        assert engine.options["Use NNUE"].type == "check"
        assert engine.options["Use NNUE"].default is True


def test_default_engine_searches_with_the_shipped_network():
    """No setoption at all: the first isready loads the shipped network and
    the search uses it; `Use NNUE false` gives the classical evaluation."""
    text = "\n".join(raw_session("isready", "position startpos", "eval", "go depth 3"))
    assert re.search(r"info string EvalFile: loaded .*vireo\.nnue", text), text
    assert re.search(r"NNUE evaluation: [+-]\d+\.\d\d .*vireo\.nnue, \d+ neurons; used by the search", text), text
    off = "\n".join(raw_session("setoption name Use NNUE value false", "position startpos", "eval"))
    assert "Final evaluation" in off, off
    assert re.search(r"NNUE evaluation: [+-]\d+\.\d\d .*vireo\.nnue, \d+ neurons; Use NNUE is off", off), off


def test_plays_with_a_network(tmp_path):
    path = write(tmp_path)
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    with popen_uci() as engine:
        engine.configure({"EvalFile": str(path), "Use NNUE": True})
        result = engine.play(board, chess.engine.Limit(depth=6))
        assert result.move in board.legal_moves


def raw_session(*lines):
    engine = RawEngine()
    try:
        engine.handshake()
        for line in lines:
            engine.send(line)
        if any(line.startswith("go") for line in lines):
            engine.expect("bestmove", timeout=60)     # the search answers asynchronously
        engine.send("isready")
        engine.expect("readyok", timeout=30)
        return [line for _, line in engine.seen]
    finally:
        engine.close()


def test_use_nnue_alone_loads_the_shipped_network():
    seen = raw_session("setoption name Use NNUE value true", "position startpos", "eval", "go depth 3")
    text = "\n".join(seen)
    assert re.search(r"EvalFile: loaded \S*data/vireo\.nnue \(\d+ neurons", text), text
    assert re.search(r"NNUE evaluation: [+-]\d+\.\d\d .*vireo\.nnue, \d+ neurons; used by the search", text), text


def test_no_shipped_network_keeps_classical(monkeypatch, tmp_path):
    """A build without data/vireo.nnue: Use NNUE says so and the classical evaluation plays."""
    from engine import _core
    from engine.uci import network
    monkeypatch.setattr(network, "SHIPPED_NETWORK", tmp_path / "vireo.nnue")
    said = []
    _core.unload_network()
    search = _core.Search()
    slot = network.NetworkSlot(said.append, _core, search)
    assert slot.apply("", True) is False
    assert any("no network is shipped" in line for line in said), said
    assert any("using the classical evaluation" in line for line in said), said
    best, _ = search.go(_core.Position(), {"depth": 3})
    assert best in {m.uci() for m in chess.Board().legal_moves}


def test_bad_files_keep_previous_network(tmp_path):
    good = write(tmp_path)
    truncated = tmp_path / "truncated.nnue"
    truncated.write_bytes(good.read_bytes()[:1000])
    corrupt = tmp_path / "corrupt.nnue"
    data = bytearray(good.read_bytes())
    data[100] ^= 1
    corrupt.write_bytes(bytes(data))
    wrong = tmp_path / "book.bin"
    wrong.write_bytes(b"\0" * 5000)
    seen = raw_session(
        f"setoption name EvalFile value {good}", "setoption name Use NNUE value true",
        f"setoption name EvalFile value {tmp_path / 'absent.nnue'}",
        f"setoption name EvalFile value {truncated}",
        f"setoption name EvalFile value {corrupt}",
        f"setoption name EvalFile value {wrong}",
        "position startpos", "eval", "go depth 4")
    text = "\n".join(seen)
    assert f"EvalFile: loaded {good}" in text
    for problem in ("cannot read network file", "bytes, a network with 32 neurons and 1 output bucket",
                    "checksum mismatch", "not a Vireo network"):
        assert re.search(rf"info string EvalFile .*{problem}.*; kept {re.escape(str(good))}", text), problem
    assert re.search(rf"NNUE evaluation: [+-]\d+\.\d\d .*{re.escape(str(good))}, 32 neurons; used by the search", text)
    assert "bestmove" in text


def test_bench_with_a_network(tmp_path):
    path = write(tmp_path, hidden=64)
    result = vireo("bench", "4", "16", "1", "--quiet", "--nnue", str(path))
    assert result.returncode == 0, result.stderr
    assert int(re.search(r"Nodes searched: (\d+)", result.stdout).group(1)) > 0
    bad = vireo("bench", "4", "16", "1", "--quiet", "--nnue", str(tmp_path / "absent.nnue"))
    assert bad.returncode == 2 and "cannot read network file" in bad.stderr
    both = vireo("bench", "4", "--nnue", str(path), "--classical")
    assert both.returncode == 2 and "not allowed with" in both.stderr


def test_uci_bench_keeps_the_network_of_the_options(tmp_path):
    """`bench` loads the shipped network into the core; the EvalFile the GUI
    chose is back before the next search."""
    good = write(tmp_path)
    text = "\n".join(raw_session(f"setoption name EvalFile value {good}", "bench 2 16 1 --quiet",
                                 "position startpos", "eval"))
    assert "Nodes searched" in text, text
    assert re.search(rf"NNUE evaluation: [+-]\d+\.\d\d .*{re.escape(str(good))}, 32 neurons; used by the search", text), text


def test_a_king_bucket_network_plays_and_says_what_it_is(tmp_path):
    """A version 3 network (king buckets) through EvalFile: the info string
    names its buckets and the NNUE code in use, and a game's worth of
    searches (kings walking across buckets and the mirror) plays legally."""
    path = tmp_path / "kings.nnue"
    nf.write_network(path, nf.random_network(64, nf.SCRELU, seed=43, buckets=8, king_buckets=4))
    text = "\n".join(raw_session(f"setoption name EvalFile value {path}", "isready"))
    assert re.search(rf"EvalFile: loaded {re.escape(str(path))} \(64 neurons, screlu, 8 output buckets, "
                     r"4 king buckets; (avx2|avx512|plain) code\)", text), text
    board = chess.Board("8/2k5/8/3p4/3P4/8/4K3/8 w - - 0 1")
    with popen_uci() as engine:
        engine.configure({"EvalFile": str(path), "Use NNUE": True})
        for _ in range(12):
            if board.is_game_over():
                break
            result = engine.play(board, chess.engine.Limit(nodes=20000))
            assert result.move in board.legal_moves
            board.push(result.move)
