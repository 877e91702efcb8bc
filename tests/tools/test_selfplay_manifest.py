"""data/selfplay/MANIFEST.tsv names every kept game file with its SHA-256 and
counts, and `vireo selfplay` keeps and checks it."""
import subprocess
import sys
from pathlib import Path

from engine.tools.nnue.datagen.game import GameSettings
from engine.tools.nnue.datagen.run import RunConfig, run
from engine.tools.nnue.games.manifest import check, read_manifest

REPOSITORY = Path(__file__).resolve().parents[2]
NETWORK = REPOSITORY / "src" / "engine" / "data" / "vireo.nnue"


def test_the_repository_manifest_matches_its_files():
    folder = REPOSITORY / "data" / "selfplay"
    assert (folder / "MANIFEST.tsv").is_file()
    assert check(folder, expand=20) == []


def selfplay(*args):
    return subprocess.run([sys.executable, "-m", "engine", "selfplay", *map(str, args)],
                          capture_output=True, text=True)


def test_add_then_check_and_what_check_finds(tmp_path):
    out = tmp_path / "gen0-seed3.games.xz"
    run(RunConfig(games=2, seed=3, game=GameSettings(nodes=300)), out, progress=False, command="vireo datagen x")
    added = selfplay("add", out, "--generation", "0", "--network", NETWORK)
    assert added.returncode == 0, added.stderr
    (row,) = read_manifest(tmp_path)
    assert (row.file, row.generation, row.seed, row.games, row.command) == ("gen0-seed3.games.xz", "0", "3", 2,
                                                                            "vireo datagen x")
    assert row.moves >= row.positions > 10 and len(row.network_sha256) == 64
    checked = selfplay("check", tmp_path, "--expand", "2")
    assert checked.returncode == 0 and "the manifest matches" in checked.stdout

    (tmp_path / "stray.games.xz").write_bytes(out.read_bytes())
    raw = bytearray(out.read_bytes())
    raw[-30] ^= 1
    out.write_bytes(bytes(raw))
    problems = check(tmp_path)
    assert any("stray.games.xz: not in" in p for p in problems)
    assert any("gen0-seed3.games.xz: SHA-256" in p for p in problems)
    out.unlink()
    assert any("listed but missing" in p for p in check(tmp_path))
    assert selfplay("check", tmp_path).returncode == 1


def test_add_takes_the_network_from_the_journal_and_checks_it(tmp_path):
    from engine import _core
    out = tmp_path / "g.games.xz"
    try:
        run(RunConfig(games=1, seed=2, game=GameSettings(nodes=200), eval_file=str(NETWORK)), out,
            progress=False, command="vireo datagen g.games.xz")
    finally:
        _core.unload_network()
    added = selfplay("add", out, "--generation", "7")
    assert added.returncode == 0, added.stderr
    import hashlib
    assert read_manifest(tmp_path)[0].network_sha256 == hashlib.sha256(NETWORK.read_bytes()).hexdigest()
    other = tmp_path / "other.nnue"
    other.write_bytes(b"not the network")
    refused = selfplay("add", out, "--generation", "7", "--network", other)
    assert refused.returncode == 2 and "is not the network" in refused.stderr


def test_add_without_a_journal_needs_the_seed_and_command(tmp_path):
    out = tmp_path / "g.games.xz"
    run(RunConfig(games=1, seed=1, game=GameSettings(nodes=300)), out, progress=False)
    (tmp_path / "g.games.xz.journal").unlink()
    refused = selfplay("add", out, "--generation", "1")
    assert refused.returncode == 2 and "--seed and --command" in refused.stderr
    added = selfplay("add", out, "--generation", "1", "--seed", "1", "--command", "vireo datagen g.games.xz")
    assert added.returncode == 0 and read_manifest(tmp_path)[0].network_sha256 == "-"
