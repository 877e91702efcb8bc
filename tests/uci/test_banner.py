"""`vireo` started in a terminal says who it is, in one line before anything
else (as Stockfish does); UCI clients skip a line they do not know until
`uciok` (python-chess here; cutechess-cli, fastchess and xboard through
polyglot in tests/gui and tests/runners). Subcommands print no banner."""
import subprocess

from engine import ENGINE_NAME, __version__
from uci_real_engine import ENGINE_COMMAND, REPO, engine_env, popen_uci


def run(args, script):
    return subprocess.run(ENGINE_COMMAND + args, input=script, capture_output=True, text=True,
                          env=engine_env(), cwd=str(REPO), timeout=60)


def test_the_first_line_names_the_engine_its_version_and_the_help():
    for args in ([], ["uci"]):
        lines = run(args, "uci\nquit\n").stdout.splitlines()
        assert lines[0].startswith(f"{ENGINE_NAME} {__version__}") and "vireo --help" in lines[0]
        assert lines[1] == f"id name {ENGINE_NAME} {__version__}" and lines[-1] == "uciok"
        assert sum(line.startswith(ENGINE_NAME) for line in lines) == 1


def test_the_banner_comes_before_any_command_and_only_once():
    lines = run([], "").stdout.splitlines()            # no input at all: the banner, then exit
    assert len(lines) == 1 and lines[0].startswith(ENGINE_NAME)


def test_subcommands_print_no_banner():
    done = run(["perft", "--depth", "2", "--no-progress"], "")
    assert done.returncode == 0 and not done.stdout.startswith(ENGINE_NAME)


def test_python_chess_reads_past_the_banner():
    with popen_uci() as engine:
        assert engine.id["name"] == f"{ENGINE_NAME} {__version__}"
