"""Vireo on a real OpenBench, all on 127.0.0.1 (tests/openbench_site.py):

- OpenBench's Django server (SQLite) is set up from the archive, with Vireo
  registered by the repository's openbench/Vireo.json; the engine's source
  zip, fastchess's source zip and the opening book are served by a local
  HTTP server, where OpenBench would fetch them from GitHub;
- two workloads are created as a user creates them: a DATAGEN (web form)
  and an SPRT of two options of the same commit (the scripts endpoint of
  Scripts/create_test.py);
- OpenBench's own client runs them: it downloads and builds Vireo with
  `make -j EXE=...`, checks `bench` against the commit's `Bench:`, calls
  genfens, plays with fastchess, reports, and uploads the DATAGEN PGN;
- the server's counts are checked (games reported, no crash, no time loss),
  and the DATAGEN PGN the server stored becomes training records with
  `vireo datagen OUT.games.xz --from-pgn` (the kept self-play format).

Small on purpose (nodes-limited games, 2 + 4 games) to stay within a few
minutes; a cached build of the same sources is reused (vireo_build_home).
"""
import bz2
import io
import os
import re
import subprocess
import sys
import tarfile
import time

import chess
import chess.pgn
import requests
from conftest import REPO, shared_data
from fastchess_build import require_fastchess
from openbench_site import (FASTCHESS_REF, FileServer, OpenBenchClient, OpenBenchServer,  # noqa: F401
                            book_zip, fastchess_source_zip, require_openbench, unpack_openbench,
                            vireo_build_home, vireo_source_zip)

BOOK = "vireo-2moves.epd"
REPO_URL = "https://github.com/OWNER/vireo"   # only checked for its form; sources come from SOURCES
DEADLINE_S = 1200
NODES = "N=2000"
ADJUDICATION = {"win_adj": "movecount=3 score=400", "draw_adj": "movenumber=20 movecount=4 score=20"}
SPRT_GAMES = 4      # -T 1, workload_size 1: 2 rounds of a game pair
DATAGEN_GAMES = 2   # no reverses: 2 rounds of one game


def pinned_bench() -> int:
    """The bench signature tests/uci/test_bench.py pins, as a commit's `Bench:` gives it."""
    text = (REPO / "tests" / "uci" / "test_bench.py").read_text()
    return int(re.search(r"^BENCH_SIGNATURE = (\d+)$", text, re.MULTILINE).group(1))


def engine_fields(side: str, options: str) -> dict:
    return {f"{side}_engine": "Vireo", f"{side}_repo": REPO_URL, f"{side}_branch": "main",
            f"{side}_bench": "", f"{side}_network": "", f"{side}_options": options,
            f"{side}_time_control": NODES}


def common_fields(priority: int) -> dict:
    return {"priority": str(priority), "throughput": "1000", "workload_size": "1",
            "syzygy_wdl": "DISABLED", "syzygy_adj": "DISABLED", "scale_method": "BASE",
            "scale_nps": "500000", "info": "", **ADJUDICATION}


def create_workloads(server: OpenBenchServer) -> tuple:
    session = server.session()
    # DATAGEN first (higher priority): genfens openings, the PGN uploaded
    response = session.post(f"{server.url}/datagen/new/", timeout=120, data={
        **engine_fields("dev", "Threads=1 Hash=16"), **engine_fields("base", "Threads=1 Hash=16"),
        **common_fields(priority=1), "book_name": "NONE", "upload_pgns": "COMPACT",
        "datagen_max_games": str(DATAGEN_GAMES), "datagen_custom_genfens": "plies 8",
        "datagen_play_reverses": "NO", "csrfmiddlewaretoken": session.cookies.get("csrftoken", "")})
    assert response.url.endswith("/index/"), f"datagen refused: {response.url}\n{response.text[-2000:]}"
    # The SPRT as Scripts/create_test.py sends it: two options of one commit
    response = requests.post(f"{server.url}/scripts/", timeout=120, data={
        **engine_fields("dev", "Threads=1 Hash=16"), **engine_fields("base", "Threads=1 Hash=1"),
        **common_fields(priority=0), "test_mode": "SPRT", "test_bounds": "[0.00, 10.00]",
        "test_confidence": "[0.05, 0.05]", "test_max_games": "", "book_name": BOOK,
        "upload_pgns": "FALSE", "username": "vireo", "password": "vireo-local-test",
        "action": "CREATE_TEST"})
    assert response.url.endswith("/index/"), f"SPRT refused: {response.url}\n{response.text[-2000:]}"
    ids = server.query("from OpenBench.models import Test\n"
                       "out = {t.test_mode: t.id for t in Test.objects.all()}")
    assert set(ids) == {"DATAGEN", "SPRT"}, ids
    return ids["DATAGEN"], ids["SPRT"]


def workload_info(server: OpenBenchServer, workload_id: int) -> dict:
    return requests.get(f"{server.url}/api/workload/{workload_id}/info/", timeout=30).json()["info"]


def stored_pgn(server: OpenBenchServer, workload_id: int) -> str:
    """The DATAGEN games as the server keeps them: the PGN archive its
    /api/pgns/ serves (PGNs/<id>.pgn.tar of .pgn.bz2), or, before its watcher
    has archived them, the uploaded .pgn.bz2 files."""
    folder = server.root / "Media" / "PGNs"
    archive = folder / f"{workload_id}.pgn.tar"
    try:
        if archive.is_file():
            with tarfile.open(archive) as tar:
                return "".join(bz2.decompress(tar.extractfile(m).read()).decode() for m in tar if m.isfile())
        uploads = sorted(folder.glob(f"{workload_id}.*.pgn.bz2")) if folder.is_dir() else []
        return "".join(bz2.decompress(path.read_bytes()).decode() for path in uploads)
    except (OSError, EOFError, ValueError, tarfile.TarError):
        return ""   # being written, or moved into the archive, right now: look again


def wait_for(condition, client: OpenBenchClient, server: OpenBenchServer, what: str, deadline: float):
    while time.time() < deadline:
        value = condition()
        if value:
            return value
        assert client.alive(), f"the client exited while waiting for {what}:\n{client.output()[-4000:]}"
        assert "Traceback" not in client.output(), f"the client failed:\n{client.output()[-4000:]}"
        time.sleep(2)
    raise AssertionError(f"timed out waiting for {what}\n--- client ---\n{client.output()[-4000:]}"
                         f"\n--- server ---\n{server.log.read_text()[-2000:]}")


def test_sprt_and_datagen_run_on_a_local_openbench(tmp_path, vireo_build_home):
    require_openbench()
    # VIREO_OPENBENCH_BUILD_FASTCHESS=1: no fastchess given, the client builds
    # its own from the served zip (2-4 more minutes on 2 cores)
    fastchess = None if os.environ.get("VIREO_OPENBENCH_BUILD_FASTCHESS") == "1" else require_fastchess()
    deadline = time.time() + DEADLINE_S
    served = tmp_path / "served"
    (served / "vireo").mkdir(parents=True)
    sha, source = vireo_source_zip(served / "vireo")
    fastchess_source_zip(served / "fastchess" / "archive" / f"{FASTCHESS_REF}.zip")
    book_sha = book_zip(shared_data("openings", "2moves_v1.epd"), served / "books" / f"{BOOK}.zip")
    files = FileServer(served)
    server = client = None
    try:
        server = OpenBenchServer(unpack_openbench(tmp_path / "site"), files, BOOK, book_sha,
                                 tmp_path / "server.log")
        server.add_source("main", sha, f"{files.url}/vireo/{source.name}",
                          f"Vireo under test\n\nBench: {pinned_bench()}")
        datagen_id, sprt_id = create_workloads(server)
        env = dict(os.environ, VIREO_BUILD_HOME=str(vireo_build_home))
        env.pop("PYTHONPATH", None)
        client = OpenBenchClient(server.root, tmp_path / "client", server, fastchess, env,
                                 tmp_path / "client.log")

        pgn_text = wait_for(lambda: stored_pgn(server, datagen_id), client, server,
                            "the DATAGEN PGN", deadline)
        wait_for(lambda: sum(workload_info(server, sprt_id)["tri"]) >= SPRT_GAMES, client, server,
                 "SPRT games", deadline)
        client.close()
        output = client.output()
        results = server.query(
            "from OpenBench.models import Result, Test\n"
            "out = {t.id: {'tri': list(t.as_tri()), 'penta': list(t.as_penta()), 'games': t.games,\n"
            "  'finished': t.finished, 'crashes': sum(r.crashes for r in Result.objects.filter(test=t)),\n"
            "  'timeloss': sum(r.timeloss for r in Result.objects.filter(test=t))}\n"
            "  for t in Test.objects.all()}\n"
            "from OpenBench.models import LogEvent\n"
            "out['errors'] = [e.summary for e in LogEvent.objects.all() if 'CREATE' not in e.summary]")
    finally:
        for part in (client, server):
            if part is not None:
                part.close()
        files.close()

    # The client built Vireo from the served zip and ran its bench and genfens
    assert f"Vireo-{sha.upper()[:8]}" in output
    assert f"Bench for main is {pinned_bench()}" in output
    assert "Finished Building Opening Book" in output
    assert results["errors"] == [], results["errors"]
    sprt, datagen = results[str(sprt_id)], results[str(datagen_id)]
    losses, draws, wins = sprt["tri"]
    assert wins + draws + losses >= SPRT_GAMES, sprt
    assert sum(sprt["penta"]) * 2 == wins + draws + losses, sprt   # whole pairs, as reported
    assert sprt["crashes"] == 0 and sprt["timeloss"] == 0, sprt
    assert datagen["finished"] and datagen["games"] >= DATAGEN_GAMES, datagen
    assert datagen["crashes"] == 0 and datagen["timeloss"] == 0, datagen
    check_datagen_pgn(pgn_text, tmp_path)


def check_datagen_pgn(pgn_text: str, tmp_path) -> None:
    """The games start from genfens positions, carry fastchess's scores, and
    `vireo datagen OUT.games.xz --from-pgn` keeps them as training data."""
    games = []
    stream = io.StringIO(pgn_text)
    while (game := chess.pgn.read_game(stream)) is not None:
        games.append(game)
    assert len(games) >= DATAGEN_GAMES
    for game in games:
        start = chess.Board(game.headers["FEN"])
        assert start.is_valid() and start.ply() == 8          # genfens ... plies 8
        assert game.headers["Result"] in ("1-0", "0-1", "1/2-1/2")
        assert all("/" in node.comment for node in game.mainline())   # score/depth of each move
    pgn = tmp_path / "datagen.pgn"
    pgn.write_text(pgn_text)
    kept = tmp_path / "openbench.games.xz"
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    done = subprocess.run([sys.executable, "-m", "engine", "datagen", str(kept), "--from-pgn", str(pgn)],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    from engine.tools.nnue.games.expand import expand_games
    from engine.tools.nnue.games.files import read_games
    from engine.tools.nnue.games.layout import NO_SCORE
    from engine.tools.nnue.marlinformat import decode
    converted = list(read_games(kept))
    assert len(converted) == len(games)
    for pgn_game, kept_game in zip(games, converted):
        board = kept_game.start.copy()
        assert board.epd() == chess.Board(pgn_game.headers["FEN"]).epd()
        for move in kept_game.moves:
            board.push(move)
        assert board.epd() == pgn_game.end().board().epd()     # the same moves, replayed
        assert sum(score != NO_SCORE for score in kept_game.scores) > len(kept_game.scores) // 2
    records = list(expand_games(converted))
    assert len(records) == sum(g.positions for g in converted) > 0
    for record in records:
        assert decode(record).board.is_valid()
