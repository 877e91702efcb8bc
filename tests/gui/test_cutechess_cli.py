"""cutechess-cli plays Vireo with the commands uci/README.md gives, run as
written there (shell syntax, line continuations and all), with `vireo`,
`cutechess-cli` and Debian's engines on PATH.

The second command takes Vireo's entry from uci/engines.json as shipped; the
test adds cutechess-cli's `-debug` to it to see what the entry sends, and
checks that Vireo accepts each of its options (Cute Chess's GUI starts the
entry through the same library code).
"""
import json
import re
import shutil
import subprocess
from pathlib import Path

from conftest import REPO, gui_path, require_engine
from cutechess_build import require_cutechess
from conftest import read_games
from gui_games import check_finished_game

README = (REPO / "uci" / "README.md").read_text()
# An indented command block: `cutechess-cli ...` with `\` continuation lines.
COMMAND = re.compile(r"^    (cutechess-cli (?:.*\\\n)*.*)$", re.MULTILINE)


def readme_command(word):
    commands = [c for c in COMMAND.findall(README) if word in c]
    assert len(commands) == 1, f"uci/README.md should show one cutechess-cli command with {word!r}"
    return commands[0]


def run_command(command, cwd):
    cli = require_cutechess("cutechess-cli")
    path = str(Path(cli).parent) + ":" + gui_path()
    return subprocess.run(["bash", "-c", command], cwd=cwd, env={"PATH": path, "HOME": str(cwd)},
                          capture_output=True, text=True, timeout=300)


def check_match(cwd, run, vireo_name):
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    games = read_games(cwd / "games.pgn")
    assert len(games) == 2
    for game in games:
        check_finished_game(game)
        assert vireo_name in (game.headers["White"], game.headers["Black"])


def test_readme_cutechess_cli_command_plays_a_match(tmp_path):
    require_engine("stockfish")
    run = run_command(readme_command("cmd=vireo"), tmp_path)
    check_match(tmp_path, run, "Vireo 0.1.0")      # named by its `id name`


def test_readme_engines_json_command_sets_the_entry_options(tmp_path):
    require_engine("fairymax")
    shutil.copy(REPO / "uci" / "engines.json", tmp_path)
    run = run_command(readme_command("conf=Vireo").replace("cutechess-cli", "cutechess-cli -debug all", 1), tmp_path)
    check_match(tmp_path, run, "Vireo")
    entry = next(e for e in json.loads((REPO / "uci" / "engines.json").read_text()) if e["name"] == "Vireo")
    assert {o["name"] for o in entry["options"]} >= {"Hash", "Threads", "Move Overhead"}
    for option in entry["options"]:
        assert f"setoption name {option['name']} value {option['value']}" in run.stdout
    # Vireo names an option it refuses (unknown, wrong type, out of range).
    complaints = [line for line in run.stdout.splitlines() if "info string" in line and "option" in line]
    assert not complaints, complaints
