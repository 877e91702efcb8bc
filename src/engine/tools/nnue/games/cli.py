"""`vireo selfplay`: keep data/selfplay/MANIFEST.tsv (manifest.py).

    vireo selfplay add FILE.games.xz --generation 7 --network NET.nnue
    vireo selfplay check [FOLDER] [--expand N]

`add` takes the seed and the command from the datagen journal beside the
file (FILE.journal, or --journal), unless --seed and --command are given.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from .files import is_games_file, sha256
from .layout import GameFormatError
from .manifest import ManifestError, check, make_row, read_manifest, write_manifest

DEFAULT_FOLDER = "data/selfplay"


def add_arguments(parser):
    sub = parser.add_subparsers(dest="action", metavar="ACTION")
    add = sub.add_parser("add", help="add (or renew) a kept game file's row in its folder's manifest")
    add.add_argument("file", help="a .games.xz file inside the manifest's folder")
    add.add_argument("--generation", required=True, help="the generation this data trains: one more than the generation of the network that played (as in docs/nnue.md)")
    add.add_argument("--network", help="the network file that played (default: the one the journal names, "
                                       "else the hand-written evaluation)")
    add.add_argument("--seed", help="datagen's --seed (default: from the journal)")
    add.add_argument("--command", dest="made_by", metavar="TEXT",
                     help="the command that made the file (default: from the journal)")
    add.add_argument("--journal", help="the datagen journal (default: FILE.journal)")
    verify = sub.add_parser("check", help="check that the manifest matches the files present")
    verify.add_argument("folder", nargs="?", default=DEFAULT_FOLDER, help=f"default {DEFAULT_FOLDER}")
    verify.add_argument("--expand", type=int, default=0, metavar="N",
                        help="also replay the first N games of each file through the filter")


def _fail(message: str) -> int:
    print(f"vireo selfplay: {message}", file=sys.stderr)
    return 2


def from_journal(path: Path):
    """(seed, command, network SHA-256) from a datagen journal: its settings
    line and its first `# command` and `# network-sha256` lines."""
    lines = path.read_text().splitlines()
    seed = re.search(r"\bseed=(\S+)", lines[0]) if lines else None

    def note(word):
        return next((line[len(word):] for line in lines if line.startswith(word)), None)
    return (seed.group(1) if seed else None), note("# command "), note("# network-sha256 ")


def add(args) -> int:
    path = Path(args.file)
    if not is_games_file(path) or not path.is_file():
        return _fail(f"{path}: not a .games.xz file")
    seed, command = args.seed, args.made_by
    network = sha256(args.network) if args.network else None
    journal = Path(args.journal or str(path) + ".journal")
    if journal.is_file():
        found_seed, found_command, found_network = from_journal(journal)
        seed, command = seed or found_seed, command or found_command
        if network and found_network and network != found_network:
            return _fail(f"--network {args.network} is not the network {journal} names ({found_network})")
        network = network or found_network
    if seed is None or command is None:
        return _fail(f"no journal {journal}: give --seed and --command")
    network = network or "-"
    row = make_row(path, args.generation, network, seed, command)
    rows = [r for r in read_manifest(path.parent) if r.file != row.file] + [row]
    write_manifest(path.parent, rows)
    print(f"{row.file}: {row.games} games, {row.moves} moves, {row.positions} positions")
    return 0


def run(args) -> int:
    try:
        if args.action == "add":
            return add(args)
        if args.action == "check":
            problems = check(args.folder, args.expand)
            for problem in problems:
                print(problem)
            rows = read_manifest(args.folder)
            positions, moves = sum(r.positions for r in rows), sum(r.moves for r in rows)
            size = sum((Path(args.folder) / r.file).stat().st_size for r in rows
                       if (Path(args.folder) / r.file).is_file())
            print(f"{len(rows)} files, {sum(r.games for r in rows)} games, {moves} moves, {positions} positions, "
                  f"{size} bytes ({size / max(moves, 1):.2f} a move, {size / max(positions, 1):.2f} a position): "
                  f"{'the manifest matches' if not problems else f'{len(problems)} problems'}")
            return 1 if problems else 0
    except (ManifestError, GameFormatError, OSError) as exc:
        return _fail(str(exc))
    return _fail("say add or check (vireo selfplay --help)")
