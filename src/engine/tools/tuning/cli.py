"""`python -m engine.tools.tuning`: fit the evaluation weights by the Texel method
and write them to src/engine/core/eval/weights.pxi (then rebuild the core).

Defines add_arguments(parser) and run(args) like the other subcommands.
"""
import sys
import time
from pathlib import Path

import numpy as np

from engine import _core
from engine.tools.tuning import data, features, texel
from engine.tools.tuning.start_weights import start_weights
from engine.tools.tuning.weights_file import WEIGHTS_PXI, write_weights


def add_arguments(parser):
    parser.add_argument("--data", nargs="+", metavar="FILE",
                        help="FEN;score;result files, plain or .gz (default: ../shared/data/tuning/selfplay-*.txt.gz)")
    parser.add_argument("--limit", type=int, help="use at most this many positions")
    parser.add_argument("--validation", type=float, default=0.05,
                        help="fraction held out to measure the loss on unseen positions (default 0.05)")
    parser.add_argument("--lambda", dest="lam", type=float, default=0.0,
                        help="target = lambda*result + (1-lambda)*sigmoid(K_sf*stockfish score); default 0: the "
                             "scores alone, which played best (docs/tuning.md); 1 = classical Texel on results")
    parser.add_argument("--epochs", type=int, default=250, help="Adam steps over the whole set (default 250)")
    parser.add_argument("--lr", type=float, default=1.0, help="Adam step, centipawns (default 1.0)")
    parser.add_argument("--l2", type=float, default=0.0, help="pull towards the start weights (default 0)")
    parser.add_argument("--k", type=float, help="sigmoid scale K (default: fitted to the results)")
    parser.add_argument("--start", action="store_true",
                        help="start from the untuned weights (engine/tools/tuning/start_weights.py), not the compiled-in ones")
    parser.add_argument("--seed", type=int, default=1, help="shuffle seed for the validation split")
    parser.add_argument("--out", default=str(WEIGHTS_PXI), help="weights file to write (default: %(default)s)")
    parser.add_argument("--dry-run", action="store_true", help="fit and report, write nothing")


def _log(text):
    print(text, flush=True)


def _losses(model_train, model_val, t_train, t_val, k, w_mg, w_eg):
    return (texel.mse(model_train.evals(w_mg, w_eg), t_train, k),
            texel.mse(model_val.evals(w_mg, w_eg), t_val, k) if model_val.n else float("nan"))


def run(args):
    paths = args.data or data.default_files()
    if not paths:
        print("tuning: no data files (give --data FILE ...)", file=sys.stderr)
        return 2
    if not 0 <= args.validation < 1 or not 0 <= args.lam <= 1 or args.epochs < 0:
        print("tuning: --validation in [0, 1), --lambda in [0, 1], --epochs >= 0", file=sys.stderr)
        return 2
    t0 = time.time()
    try:
        fens, sf_scores, results = data.read_positions(paths, args.limit)
        if args.start:
            _core.set_eval_weights(start_weights())
        feats = features.trace(fens)
    except (OSError, ValueError) as exc:
        print(f"tuning: {exc}", file=sys.stderr)
        return 2
    layout = _core.eval_layout()
    w0 = np.array(_core.get_eval_weights(), dtype=np.float64)
    # Positions the engine scores 0 outright (scale 0) are not linear in the weights.
    usable = feats.scale > 0
    rng = np.random.default_rng(args.seed)
    is_val = rng.random(feats.size) < args.validation
    train, val = feats.select(usable & ~is_val), feats.select(usable & is_val)
    _log(f"positions: {len(fens)} read from {', '.join(str(p) for p in paths)}; "
         f"{train.size} train, {val.size} validation ({int((~usable).sum())} dropped: scale 0); "
         f"{len(train.rows) / max(train.size, 1):.1f} non-zero features each; traced in {time.time() - t0:.0f} s")

    res_train, res_val = results[usable & ~is_val], results[usable & is_val]
    sf_train, sf_val = sf_scores[usable & ~is_val], sf_scores[usable & is_val]
    k = args.k if args.k else texel.fit_k(train.engine_eval, res_train)
    k_sf = texel.fit_k(sf_train, res_train)
    t_train = args.lam * res_train + (1 - args.lam) * texel.win_probability(sf_train, k_sf)
    t_val = args.lam * res_val + (1 - args.lam) * texel.win_probability(sf_val, k_sf)
    _log(f"K = {k:.4f} (fitted to the results with the starting weights); "
         f"Stockfish scores: K_sf = {k_sf:.4f}; lambda = {args.lam}")

    m_train = texel.LinearEval(train, len(w0))
    m_val = texel.LinearEval(val, len(w0))
    before = _losses(m_train, m_val, t_train, t_val, k, w0[:, 0], w0[:, 1])
    _log(f"loss before: train {before[0]:.6f}, validation {before[1]:.6f}")
    w_mg, w_eg = texel.fit(m_train, t_train, k, w0[:, 0], w0[:, 1], args.epochs, args.lr, args.l2,
                           report=lambda e, loss: _log(f"  epoch {e}: train loss {loss:.6f}"))
    w_mg, w_eg = np.rint(w_mg), np.rint(w_eg)
    after = _losses(m_train, m_val, t_train, t_val, k, w_mg, w_eg)
    _log(f"loss after:  train {after[0]:.6f}, validation {after[1]:.6f} (weights rounded to integers)")

    tuned = {name: [(int(w_mg[i]), int(w_eg[i])) for i in range(start, start + size)]
             for name, start, size, _ in layout}
    _core.set_eval_weights(tuned)
    # The engine with the new weights must agree with the fitted model.
    check = features.trace(fens[: min(len(fens), 2000)])
    model_check = texel.LinearEval(check, len(w0)).evals(w_mg, w_eg)
    drift = np.abs(np.where(check.scale > 0, model_check, 0) - check.engine_eval).max() if check.size else 0.0
    _log(f"engine vs model on {check.size} positions: max difference {drift:.1f} cp (integer rounding)")
    if args.dry_run:
        return 0
    header = [
        f"Tuned: python -m engine.tools.tuning {getattr(args, 'command_line', '')}".rstrip(),
        f"Data: {len(fens)} positions ({', '.join(Path(p).name for p in paths)}),"
        f" {train.size} train / {val.size} validation",
        f"K = {k:.4f}, lambda = {args.lam}, epochs = {args.epochs}, lr = {args.lr}, l2 = {args.l2}",
        f"Loss before: train {before[0]:.6f}, validation {before[1]:.6f}",
        f"Loss after:  train {after[0]:.6f}, validation {after[1]:.6f}",
    ]
    path = write_weights(tuned, args.out, header)
    _log(f"wrote {path}; rebuild the core (pip install -e .) to compile the new weights in")
    return 0
