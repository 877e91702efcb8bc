"""Results kept compressed: `vireo match --rescore`/`--continue` and `vireo
spsa --state` read .gz and .xz files as they are, and benchmarks/results/
holds no large uncompressed file."""
import gzip
import lzma
import re

import pytest

from conftest import REPO, require_engine, shared_data
from engine.__main__ import main
from engine.tools.match.rescore import RescoreError, tally_from_pgn
from engine.tools.spsa.params import Param
from engine.tools.spsa.state import SpsaState, load
from test_match_distributed import _earlier_games, game

RESULTS = REPO / "benchmarks" / "results"
OPENERS = {".pgn": open, ".pgn.gz": gzip.open, ".pgn.xz": lzma.open}


def write(path, text):
    """`text` into `path`, compressed as its name says."""
    opener = OPENERS["".join(path.suffixes[-2:]) if path.suffix in (".gz", ".xz") else path.suffix]
    with opener(path, "wt", encoding="utf-8") as handle:
        handle.write(text)


def test_rescore_reads_gzip_and_xz_as_plain_pgn(tmp_path, capsys):
    text = (game("1.1", "x", "y", "1-0") + game("1.2", "y", "x", "1/2-1/2")
            + game("2.1", "x", "y", "0-1") + game("2.2", "y", "x", "1-0"))
    paths = {}
    for ending in OPENERS:
        paths[ending] = tmp_path / f"games{ending}"
        write(paths[ending], text)
    assert paths[".pgn.xz"].read_bytes()[:6] == b"\xfd7zXZ\x00"      # really compressed
    assert paths[".pgn.gz"].read_bytes()[:2] == b"\x1f\x8b"
    reports = []
    for path in paths.values():
        assert main(["match", "--rescore", str(path), "--first", "x"]) == 0
        reports.append(capsys.readouterr().out)
    assert reports[0] == reports[1] == reports[2]
    assert "Games: 4, Wins: 1, Draws: 1, Losses: 2" in reports[0]


def test_rescore_counts_plain_and_compressed_files_together(tmp_path):
    plain, packed = tmp_path / "a.pgn", tmp_path / "b.pgn.xz"
    write(plain, game("1.1", "x", "y", "1-0", "o #1") + game("1.2", "y", "x", "0-1", "o #1"))
    write(packed, game("1.1", "x", "y", "1/2-1/2", "o #2") + game("1.2", "y", "x", "1/2-1/2", "o #2"))
    tally = tally_from_pgn([str(plain), str(packed)], first="x")
    assert (tally.wins, tally.draws, tally.losses) == (2, 2, 0)
    assert tally.pentanomial == [0, 0, 1, 0, 1]


@pytest.mark.parametrize("ending", [".pgn.xz", ".pgn.gz"])
def test_a_damaged_compressed_pgn_is_refused_by_name(tmp_path, capsys, ending):
    path = tmp_path / f"games{ending}"
    write(path, game("1.1", "x", "y", "1-0") * 200)
    path.write_bytes(path.read_bytes()[:len(path.read_bytes()) // 2])   # cut off mid-stream
    with pytest.raises(RescoreError, match="cannot read"):
        tally_from_pgn([str(path)])
    assert main(["match", "--rescore", str(path)]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_continue_counts_earlier_games_from_xz_and_gz(tmp_path, capsys):
    # The earlier games of test_match_distributed's --continue test, split
    # into an .xz and a .gz file: only both together bring the LLR near the
    # bound, and the output counts every one of them first.
    engine = require_engine("stockfish")
    plain = tmp_path / "earlier.pgn"
    _earlier_games(plain, [0, 1, 4, 1, 15])            # LLR 2.80 of 2.94 for elo1=50
    games = plain.read_text().split('[Event "t"]')[1:]
    half = len(games) // 2
    first, second = tmp_path / "earlier-a.pgn.xz", tmp_path / "earlier-b.pgn.gz"
    write(first, "".join('[Event "t"]' + g for g in games[:half]))
    write(second, "".join('[Event "t"]' + g for g in games[half:]))
    new = tmp_path / "new.pgn"
    args = ["match", "--engine", f"cmd={engine}", "name=a", "nodes=20000", "--engine", f"cmd={engine}",
            "name=b", "depth=1", "--each", "option.Threads=1", "--games", "40", "--seed", "3",
            "--openings", f"file={shared_data('openings', '8moves_v3.pgn')}", "order=random",
            "--sprt", "elo0=0", "elo1=50", "--no-progress", "--pgnout", str(new)]
    assert main([*args, "--continue", str(first), str(second)]) == 0
    captured = capsys.readouterr()
    assert "counting 42 earlier games first" in captured.err
    played = tally_from_pgn([str(new)], "a")
    assert 2 <= played.games < 40 and "H1 accepted" in captured.out
    assert f"Games: {42 + played.games}," in captured.out


@pytest.mark.parametrize("ending", [".json.xz", ".json.gz"])
def test_spsa_state_is_read_and_rewritten_compressed(tmp_path, ending):
    path = str(tmp_path / f"spsa{ending}")
    params = [Param("A", 5.5, 0, 10, 1.0), Param("B", 3.0, 0, 9, 2.0, 0.001)]
    state = SpsaState(100, params)
    state.record(1, 1, 0)
    state.save(path)
    opener = lzma.open if ending.endswith(".xz") else gzip.open
    with opener(path, "rt") as handle:            # a real compressed file, not text
        assert '"done": 1' in handle.read()
    again = load(path, 100, [Param("A", 0, 0, 10, 1.0), Param("B", 0, 0, 9, 1.0)])
    assert again.to_json() == state.to_json()
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"spsa{ending}"]   # no temporary left


def test_no_large_uncompressed_result_file():
    files = [p for p in RESULTS.iterdir() if p.is_file()]
    assert files
    for path in files:
        if path.suffix == ".pgn" or path.stat().st_size > 1_000_000:
            assert path.suffix in (".xz", ".gz"), f"{path.name}: compress it (xz -9)"


def test_every_compressed_result_is_whole():
    packed = sorted(RESULTS.glob("*.xz")) + sorted(RESULTS.glob("*.gz"))
    assert len(packed) >= 30
    for path in packed:
        opener = lzma.open if path.suffix == ".xz" else gzip.open
        with opener(path, "rt", encoding="utf-8") as handle:
            assert handle.read(), path.name


def test_the_result_files_the_docs_name_exist_as_named():
    # A command in the docs that names a game or state file (a glob too)
    # must find it: renaming or compressing a file means updating its commands.
    named = set()
    for document in [REPO / "README.md"] + sorted((REPO / "docs").glob("*.md")):
        named.update(re.findall(r"benchmarks/results/([\w+*.-]+\.(?:pgn|json)(?:\.xz|\.gz)?)\b",
                                document.read_text(encoding="utf-8")))
    assert len(named) >= 20
    missing = [name for name in sorted(named) if not list(RESULTS.glob(name))]
    assert not missing, missing
