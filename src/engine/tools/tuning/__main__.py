import argparse
import sys

from engine.tools.tuning import cli

parser = argparse.ArgumentParser(prog="python -m engine.tools.tuning", description=cli.__doc__.splitlines()[0])
cli.add_arguments(parser)
args = parser.parse_args()
args.command_line = " ".join(sys.argv[1:])
sys.exit(cli.run(args))
