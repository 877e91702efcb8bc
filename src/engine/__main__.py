"""Command line: `vireo` (or `python -m engine`) with no arguments speaks UCI.

Each subcommand lives in its own module that defines
    add_arguments(parser)  and  run(args) -> int (the exit status),
and is imported only when used, so a broken or slow tool never delays the
UCI loop that GUIs start.
"""
import argparse
import importlib
import sys

# subcommand -> (module, one-line help)
SUBCOMMANDS = {
    "uci": ("engine.uci.loop", "speak UCI on stdin/stdout (the default)"),
    "perft": ("engine.tools.perft", "count leaf nodes of the move tree (move generator check)"),
    "bench": ("engine.uci.bench", "search a fixed list of positions; prints the node signature"),
    "match": ("engine.tools.match.cli", "play a match between UCI/xboard engines"),
    "spsa": ("engine.tools.spsa.cli", "tune an engine's spin options by SPSA over game pairs"),
    "analyse": ("engine.tools.analyse.cli", "annotate the games of PGN files: evals, ?! ? ??, better lines, report"),
    "epd": ("engine.tools.epd", "run an EPD test suite (bm/am, c0 points)"),
    "book": ("engine.tools.book", "build or inspect Polyglot opening books"),
    "tune": ("engine.tools.tuning.cli", "fit the evaluation weights to labelled positions (Texel)"),
    "datagen": ("engine.tools.nnue.datagen.cli", "self-play training data for the NNUE (kept games or Marlinformat)"),
    "selfplay": ("engine.tools.nnue.games.cli", "the kept self-play (data/selfplay): add to or check its manifest"),
    "train": ("engine.tools.nnue.train.cli", "train the NNUE on Marlinformat data; export the network file"),
    "genfens": ("engine.tools.genfens", "opening positions for OpenBench DATAGEN (genfens N seed S book B)"),
}


class VersionAction(argparse.Action):
    """`vireo --version`: the version and which native core runs (engine/cpu.py)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help="print the version and the native core in use")

    def __call__(self, parser, namespace, values, option_string=None):
        print(version_line())
        parser.exit()


def version_line() -> str:
    from . import ENGINE_NAME, __version__
    try:
        from . import _core, cpu
    except ImportError as exc:
        return f"{ENGINE_NAME} {__version__} (native core not built: {exc})"
    level = cpu.cpu_level()
    machine = f"; this CPU: {cpu.LEVELS[level - 1]}" if level else ""
    return f"{ENGINE_NAME} {__version__} (core: {cpu.describe(_core)}{machine})"


def build_parser(command=None):
    """The parser; only `command`'s module is imported (for its arguments), so
    a tool that cannot load, or that imports numpy on a CPU numpy refuses,
    never touches the others."""
    parser = argparse.ArgumentParser(
        prog="vireo",
        description="Vireo chess engine. Without a subcommand it speaks UCI on stdin/stdout.",
    )
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        p.set_defaults(_module=module)
        if name != command:
            continue
        try:
            importlib.import_module(module).add_arguments(p)
        except Exception as exc:  # a missing package, or one that refuses this CPU
            p.set_defaults(_import_error=str(exc))
    return parser


def is_command_lines(argv) -> bool:
    """OpenBench (like Stockfish's users) passes whole command lines as
    arguments: `vireo "genfens 8 seed 1 book None" quit`."""
    # A plain invocation starts with the subcommand's name alone.
    return bool(argv) and (argv[-1] == "quit" or len(argv[0].split()) > 1)


def run_command_lines(argv) -> int:
    """Each argument is one subcommand with its arguments, run in order, until `quit`."""
    for line in argv:
        words = line.split()
        if words == ["quit"]:
            break
        if not words or words[0] not in SUBCOMMANDS or words[0] == "uci":
            print(f"vireo: {line.strip()!r} is not a command to run from the command line "
                  f"(one of: {', '.join(n for n in SUBCOMMANDS if n != 'uci')}, quit)", file=sys.stderr)
            return 2
        status = main(words)
        if status:
            return status
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:
        argv = ["uci"]
    if is_command_lines(argv):
        return run_command_lines(argv)
    command = next((word for word in argv if not word.startswith("-")), None)
    args = build_parser(command).parse_args(argv)
    if args.command is None:
        args = build_parser("uci").parse_args(["uci"])
    if getattr(args, "_import_error", None):
        print(f"vireo {args.command}: unavailable ({args._import_error})", file=sys.stderr)
        return 2
    module = importlib.import_module(args._module)
    try:
        return int(module.run(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
