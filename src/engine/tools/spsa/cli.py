"""`vireo spsa`: tune an engine's spin options by SPSA over game pairs."""
import argparse
import asyncio
import sys
from typing import Dict

from ..match.adjudication import AdjudicationError, parse_draw, parse_resign
from ..match.openings import OpeningError, OpeningSuite, parse_options
from ..match.player import EngineStartError, Player, quiet_engine_chatter
from ..match.spec import SpecError, build_spec
from .params import ParamError, parse_openbench, parse_param_words, resolve
from .runner import SpsaSettings, run_spsa
from .schedule import A_RATIO, ALPHA, GAMMA, Schedule
from .state import SpsaState, load

EPILOG = """\
parameters:
  --param NAME [start=X] [min=N] [max=N] [c=X] [r=X]     one spin option (repeatable); what is left out
      comes from the engine: its default is the start, its min/max the bounds; c (c_end, the nudge
      at the end of the run) defaults to (max - min) / 20, at least 1; r (r_end) to 0.002
  --params-file FILE    OpenBench lines: NAME, int, START, MIN, MAX, C_END, R_END
Vireo declares its search constants as options only when started with --tune:
  --engine cmd=vireo arg=uci arg=--tune

example (the network's pruning margins, 10+0.1, 15 games at once):
  vireo spsa --engine cmd=vireo arg=uci arg=--tune tc=10+0.1 option.Hash=64 option.OwnBook=false \\
      --param RFP_MARGIN --param FUT_BASE --param FUT_MUL --param QS_FUT_MARGIN \\
      --iterations 4000 --concurrency 15 --state spsa.json --seed 1 \\
      --openings file=../shared/data/openings/8moves_v3.pgn order=random \\
      --resign movecount=3 score=600 --draw movenumber=34 movecount=8 score=20

The state file is rewritten after every pair; run the same command again to go on after a
kill or Ctrl-C. The result is printed as a table and as OpenBench lines (a --params-file).
Exit status: 0 done, 1 an engine failed, 2 bad arguments, 130 interrupted.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EPILOG
    parser.add_argument("--engine", nargs="+", metavar="KEY=VALUE", required=True,
                        help="the engine, in vireo match's words (cmd=, arg=, option.X=, tc=, nodes=, ...)")
    parser.add_argument("--param", action="append", nargs="+", metavar="WORD", default=[],
                        help="a spin option to tune (see below)")
    parser.add_argument("--params-file", metavar="FILE", help="parameters in OpenBench's format")
    parser.add_argument("--iterations", type=int, required=True, help="game pairs in the run (N)")
    parser.add_argument("--state", required=True, metavar="FILE",
                        help="JSON state, rewritten after each pair; an existing one is resumed")
    parser.add_argument("--concurrency", type=int, default=1, help="games at once (default 1)")
    parser.add_argument("--openings", nargs="+", metavar="KEY=VALUE", help="opening suite, as vireo match")
    parser.add_argument("--seed", type=int, default=0, help="perturbations and opening order (default 0)")
    parser.add_argument("--resign", nargs="+", metavar="KEY=N", help="resign adjudication, as vireo match")
    parser.add_argument("--draw", nargs="+", metavar="KEY=N", help="draw adjudication, as vireo match")
    parser.add_argument("--alpha", type=float, default=ALPHA, help=f"a_k exponent (default {ALPHA})")
    parser.add_argument("--gamma", type=float, default=GAMMA, help=f"c_k exponent (default {GAMMA})")
    parser.add_argument("--a-ratio", type=float, default=A_RATIO,
                        help=f"A as a share of the iterations (default {A_RATIO})")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


async def _engine_spins(spec) -> Dict[str, tuple]:
    """{name: (default, min, max)} of the engine's spin options."""
    player = Player(spec)
    await player.start()
    try:
        return {o.name: (o.default, o.min, o.max) for o in player.protocol.options.values()
                if o.type == "spin"}
    finally:
        await player.stop()


def _requests(args):
    requests = [parse_param_words(words) for words in args.param]
    if args.params_file:
        try:
            with open(args.params_file) as handle:
                text = handle.read()
        except OSError as exc:
            raise ParamError(f"--params-file: cannot read {args.params_file}: {exc.strerror or exc}") from None
        requests += parse_openbench(text, args.params_file)
    if not requests:
        raise ParamError("name at least one parameter: --param NAME or --params-file FILE")
    return requests


def _settings(args):
    spec = build_spec(args.engine)
    if not spec.has_limit():
        raise SpecError("the engine has no limit: give tc=, st=, depth= or nodes=")
    if spec.protocol != "uci":
        raise SpecError("vireo spsa tunes UCI engines (proto=uci)")
    if args.iterations < 1 or args.concurrency < 1:
        raise SpecError("--iterations and --concurrency must be at least 1")
    if not (0 < args.alpha and 0 < args.gamma and 0 <= args.a_ratio):
        raise SpecError("--alpha and --gamma must be above 0, --a-ratio at least 0")
    suite = OpeningSuite(parse_options(args.openings), args.seed) if args.openings else None
    return SpsaSettings(
        engine=spec, state_path=args.state, concurrency=args.concurrency, openings=suite,
        resign=parse_resign(args.resign) if args.resign else None,
        draw=parse_draw(args.draw) if args.draw else None, seed=args.seed,
        progress=not args.no_progress,
        schedule=Schedule(args.iterations, args.alpha, args.gamma, args.a_ratio))


def report(state: SpsaState) -> str:
    width = max(len(p.name) for p in state.params)
    lines = [f"SPSA after {state.done} of {state.iterations} pairs; theta + c*delta scored "
             f"+{state.wins} ={state.draws} -{state.losses}",
             f"{'parameter':<{width}}  {'start':>9}  {'now':>9}  {'engine':>6}  bounds"]
    for p in state.params:
        lines.append(f"{p.name:<{width}}  {state.start[p.name]:>9.2f}  {p.value:>9.2f}  "
                     f"{p.engine_value(p.value):>6}  {p.min}..{p.max}")
    lines.append("OpenBench lines (a --params-file to go on from here):")
    lines.extend(p.openbench_line() for p in state.params)
    return "\n".join(lines)


def run(args) -> int:
    quiet_engine_chatter()
    try:
        settings = _settings(args)
        requests = _requests(args)
        params = resolve(requests, asyncio.run(_engine_spins(settings.engine)))
        state = load(args.state, args.iterations, params)
        if state is None:
            state = SpsaState(args.iterations, params)
            state.save(args.state)
        elif state.done:
            print(f"resuming {args.state} after {state.done} pairs", file=sys.stderr)
    except EngineStartError as exc:
        print(f"vireo spsa: {exc}", file=sys.stderr)
        return 1
    except (SpecError, OpeningError, AdjudicationError, ParamError) as exc:
        print(f"vireo spsa: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"vireo spsa: --state {args.state}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    spsa = run_spsa(settings, state)
    if spsa.error:
        print(f"vireo spsa: {spsa.error}", file=sys.stderr)
    print(report(state))
    print(f"State: {args.state} ({spsa.seconds:.1f} s this run)")
    return {"completed": 0, "interrupted": 130, "error": 1}[spsa.stop_reason]
