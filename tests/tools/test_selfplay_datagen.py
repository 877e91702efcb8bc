"""`vireo datagen OUT.games.xz`: the kept games expand to exactly the records
the Marlinformat path writes for the same games, a killed or stopped run
resumes to the same file's positions, and the export is `--convert`."""
import lzma
import os
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest
from conftest import shared_data

from engine.tools.nnue.datagen.game import GameSettings
from engine.tools.nnue.datagen.journal import GamesJournal
from engine.tools.nnue.datagen.run import RunConfig, run
from engine.tools.nnue.datagen.starts import StartSettings, read_openings
from engine.tools.nnue.games.expand import expand_games
from engine.tools.nnue.games.files import count, read_bytes, read_games
from engine.tools.nnue.marlinformat import RECORD_SIZE

NODES = 400


def generate(path, **settings):
    settings.setdefault("games", 4)
    starts = settings.pop("starts", StartSettings())
    skip = settings.pop("skip_plies", 8)
    run(RunConfig(game=GameSettings(nodes=NODES, skip_plies=skip), starts=starts, **settings), path, progress=False)
    return path


def records_by_game(path):
    """game index -> its records, from a Marlinformat file and its journal."""
    data = path.read_bytes()
    blocks, offset = {}, 0
    for line in open(str(path) + ".journal").read().splitlines()[1:]:
        if line.startswith("#"):
            continue
        game, records, _, _ = map(int, line.split())
        blocks[game] = data[offset:offset + records * RECORD_SIZE]
        offset += records * RECORD_SIZE
    assert offset == len(data)
    return blocks


def expanded_by_game(path):
    order = [int(line.split()[0]) for line in open(str(path) + ".journal").read().splitlines()[1:]
             if not line.startswith(("#", "flushed"))]
    games = list(read_games(path))
    assert len(games) == len(order)
    return {g: b"".join(expand_games([game])) for g, game in zip(order, games)}


@pytest.mark.parametrize("settings", [
    dict(seed=5),
    dict(seed=6, skip_plies=0, workers=2),
    dict(seed=7, starts=StartSettings(chess960=True)),
    dict(seed=8, starts=StartSettings(openings=tuple(read_openings([shared_data("openings/2moves_v1.epd")])))),
], ids=["standard", "no-skip-two-workers", "chess960", "openings"])
def test_kept_games_expand_to_the_marlinformat_records(tmp_path, settings):
    records = records_by_game(generate(tmp_path / "a.bin", **dict(settings)))
    kept = expanded_by_game(generate(tmp_path / "a.games.xz", **dict(settings)))
    assert kept == records
    assert sum(len(r) for r in records.values()) > 20 * RECORD_SIZE
    counted = count(read_bytes(tmp_path / "a.games.xz"))
    assert counted.games == 4 and counted.positions * RECORD_SIZE == sum(len(r) for r in records.values())


def test_convert_exports_marlinformat_and_text(tmp_path):
    generate(tmp_path / "a.bin", seed=3)
    generate(tmp_path / "a.games.xz", seed=3)
    for target in ("x.bin", "x.txt"):
        result = subprocess.run([sys.executable, "-m", "engine", "datagen", "--convert",
                                 str(tmp_path / "a.games.xz"), str(tmp_path / target)],
                                capture_output=True, text=True)
        assert result.returncode == 0, result.stderr
    assert (tmp_path / "x.bin").read_bytes() == (tmp_path / "a.bin").read_bytes()
    subprocess.run([sys.executable, "-m", "engine", "datagen", "--convert", str(tmp_path / "a.bin"),
                    str(tmp_path / "y.txt")], check=True, capture_output=True)
    assert (tmp_path / "x.txt").read_text() == (tmp_path / "y.txt").read_text()


def test_flushes_append_xz_streams(tmp_path):
    """A small flush size: one xz stream per few games, read back as one."""
    reference = read_bytes(generate(tmp_path / "one.games.xz", seed=4, games=6))
    out = tmp_path / "many.games.xz"
    config = RunConfig(games=6, seed=4, game=GameSettings(nodes=NODES))
    journal = GamesJournal(out, config.describe(), flush_bytes=1)
    from engine.tools.nnue.datagen.run import init_worker, play
    init_worker(config)
    for game in range(6):
        journal.append(*play(game))
    journal.close()
    raw = out.read_bytes()
    assert raw.count(b"\xfd7zXZ\x00") == 6        # six streams
    assert lzma.decompress(raw) == reference
    assert not (tmp_path / "many.games.xz.part").exists()


def datagen(out, games, *extra):
    return subprocess.Popen([sys.executable, "-m", "engine", "datagen", str(out), "--games", str(games),
                             "--seed", "9", "--nodes", str(NODES), "--quiet", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_games(journal, games):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if journal.exists() and sum(line[0].isdigit() for line in journal.read_text().splitlines()) >= games:
            return
        time.sleep(0.05)
    pytest.fail(f"datagen wrote fewer than {games} games in 60 s")


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM])
def test_a_stopped_run_resumes_to_the_same_positions(tmp_path, stop):
    games = 12
    reference = expanded_by_game(generate(tmp_path / "reference.games.xz", seed=9, games=games))
    out = tmp_path / "run.games.xz"
    journal = tmp_path / "run.games.xz.journal"
    process = datagen(out, games)
    try:
        wait_for_games(journal, 3)
        os.kill(process.pid, stop)
    finally:
        process.communicate()
    if stop == signal.SIGTERM:
        assert process.returncode == 130
        assert not (tmp_path / "run.games.xz.part").exists()    # compressed on the way out
        stopped = expanded_by_game(out)
        assert 3 <= len(stopped) < games and all(reference[g] == stopped[g] for g in stopped)
    else:
        with open(str(out) + ".part", "ab") as part:
            part.write(b"\x01" * 9)                              # a game cut off mid-write
    result = datagen(out, games)
    assert result.wait() == 0, result.stderr.read()
    assert expanded_by_game(out) == reference
    lines = journal.read_text().splitlines()
    assert sum(line.startswith("# command vireo datagen") for line in lines) == 2


def test_a_resume_with_another_network_at_the_same_path_is_refused(tmp_path):
    from engine import _core
    from engine.tools.nnue.datagen.journal import JournalError
    shipped = Path(__file__).resolve().parents[2] / "src" / "engine" / "data" / "vireo.nnue"
    network = tmp_path / "net.nnue"
    network.write_bytes(shipped.read_bytes())
    out = tmp_path / "n.games.xz"
    config = RunConfig(games=1, seed=1, game=GameSettings(nodes=200), eval_file=str(network))
    try:
        run(config, out, progress=False)
        assert any(n.startswith("network-sha256 ") for n in GamesJournal(out, config.describe()).notes)
        raw = bytearray(shipped.read_bytes())
        raw[-100] ^= 1                                # another network (a weight), same path
        raw[-4:] = zlib.crc32(raw[:-4]).to_bytes(4, "little")
        network.write_bytes(bytes(raw))
        with pytest.raises(JournalError, match="give the same network"):
            run(RunConfig(games=2, seed=1, game=GameSettings(nodes=200), eval_file=str(network)), out,
                progress=False)
    finally:
        _core.unload_network()


def test_an_output_of_neither_kind_is_refused(tmp_path):
    result = subprocess.run([sys.executable, "-m", "engine", "datagen", str(tmp_path / "out.dat"), "--games", "1"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and ".games.xz" in result.stderr and ".bin" in result.stderr
    assert not (tmp_path / "out.dat").exists() and "Traceback" not in result.stderr
