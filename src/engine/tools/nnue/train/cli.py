"""`vireo train DATA... --export OUT.nnue`: fit the NNUE to Marlinformat data.

PyTorch is an optional extra (`pip install 'vireo-chess[train]'`); this module
imports it only when a training run starts, so that the engine and its other
tools never need it.
"""
from __future__ import annotations

import argparse
import sys
import time

from ..network_file import ACTIVATIONS, MAX_BUCKETS, NetworkFileError, king_bucket_layout

KING_BUCKET_COUNTS = (1, 2, 4, 8, 16)    # network_file.king_bucket_layout's


def add_arguments(parser):
    parser.add_argument("data", nargs="+", help="training data: kept game files (.games.xz, read as the positions "
                             "they train on) and Marlinformat files (.bin), any mix")
    parser.add_argument("--export", metavar="OUT.nnue", help="write the quantized network the core loads")
    parser.add_argument("--hidden", type=int,
                        help="accumulator neurons per side (default 128, or --init's: a multiple of 16; "
                             "cheap to update in the search, and enough for a first data set). More than "
                             "--init's widens it: its neurons kept, the new ones with output weights of zero")
    parser.add_argument("--activation", choices=sorted(ACTIVATIONS),
                        help="clipped activation (default screlu, or --init's)")
    parser.add_argument("--output-buckets", type=int, metavar="B",
                        help="output buckets chosen by the number of pieces on the board (default 1, or "
                             "--init's; 8 gives one per 4 pieces; a one-bucket --init starts every bucket "
                             "from its output layer)")
    parser.add_argument("--king-buckets", type=int, metavar="K",
                        help="king buckets, K in 1, 2, 4, 8, 16: a version 3 network whose 768 features "
                             "are repeated for K groups of its own king's square, the board mirrored a <-> h "
                             "for a king on files e-h (1: the mirroring alone; network_file.king_bucket_layout). "
                             "Default none: the plain 768-feature network, or --init's. A plain (or K = 1) "
                             "--init starts every bucket from its 768 feature rows: a starting point, not "
                             "the same evaluations, since the mirroring changes what a king on e-h sees")
    parser.add_argument("--factorize", action="store_true",
                        help="with king buckets: train each feature's rows as one row shared by every "
                             "bucket plus the bucket's own difference, added together on export (every "
                             "position teaches the shared rows; a plain --init becomes the shared rows)")
    parser.add_argument("--init", metavar="NET.nnue",
                        help="start from this network file's weights instead of random ones (a new "
                             "generation from the current network); its shape is the run's")
    parser.add_argument("--epochs", type=int, default=10, help="passes over the training data (default 10)")
    parser.add_argument("--batch-size", type=int, default=16384, help="positions per step (default 16384)")
    parser.add_argument("--lr", type=float, default=1e-3, help="AdamW learning rate at the start (default 0.001; "
                                                               "cosine decay to 1%% of it)")
    parser.add_argument("--wdl", type=float, default=0.05,
                        help="λ: weight of the game result against the search score in the target (default 0.05: "
                             "self-play results at 5,000 nodes are noisy, and 0.3 played far worse; docs/nnue.md)")
    parser.add_argument("--sigmoid-scale", type=float, default=400.0,
                        help="K of sigmoid(centipawns / K) in the loss (default 400)")
    parser.add_argument("--validation", type=float, default=0.02,
                        help="fraction of each file (its tail) kept for the validation loss (default 0.02)")
    parser.add_argument("--mirror", action=argparse.BooleanOptionalAction, default=True,
                        help="augment: reflect half of the boards without castling rights a <-> h each epoch "
                             "(default on)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the initial weights and shuffles")
    parser.add_argument("--threads", type=int, help="CPU threads for torch (default: torch's choice)")
    parser.add_argument("--device", default="auto", help="auto (CUDA when present), cpu, cuda, cuda:1, ...")
    parser.add_argument("--checkpoint", metavar="PATH", help="save the training state here after every epoch")
    parser.add_argument("--resume", metavar="PATH",
                        help="continue from a checkpoint (same --hidden, --activation, --output-buckets "
                             "and --king-buckets)")
    parser.add_argument("--baseline", action="store_true",
                        help="also print the validation loss of the hand-written evaluation")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _fail(message: str) -> int:
    print(f"vireo train: {message}", file=sys.stderr)
    return 2


_SHAPE_DEFAULTS = {"hidden": 128, "activation": "screlu", "output_buckets": 1}


def _king_layout(count):
    """--king-buckets K as its map (None: none given)."""
    if count is None:
        return None
    if count not in KING_BUCKET_COUNTS:
        raise ValueError(f"--king-buckets {count} is not one of {', '.join(map(str, KING_BUCKET_COUNTS))}")
    return king_bucket_layout(count)


def _king_words(layout) -> str:
    if layout is None:
        return ""
    count = int(layout.max()) + 1
    return f", {count} king bucket{'s' if count > 1 else ''} (mirrored)"


def _shape(args):
    """Fill --hidden, --activation, --output-buckets and args.layout (the king
    bucket map, None for the plain network): from --init's network when one
    is given (an explicit different value is an error), else the defaults.
    Returns the network to start from, or None."""
    start = None
    args.layout = _king_layout(args.king_buckets)
    if args.init:
        from ..network_file import read_network
        try:
            start = read_network(args.init)
        except NetworkFileError as exc:
            raise ValueError(f"--init {args.init}: {exc}") from None
        if start.king_buckets is not None and (args.layout is None or start.king_bucket_count > 1):
            if args.layout is not None and not (args.layout == start.king_buckets).all():
                has = start.king_bucket_count
                raise ValueError(f"--king-buckets {args.king_buckets}, but --init {args.init} has {has}"
                                 + (" (another map)" if has == args.king_buckets else ""))
            args.layout = start.king_buckets      # a version 3 network keeps its map
        # else: a network of one king bucket spreads into any map (model.with_king_buckets)
        names = {value: name for name, value in ACTIVATIONS.items()}
        found = {"hidden": start.hidden, "activation": names[start.activation], "output_buckets": start.buckets}
        for key, value in found.items():
            given = getattr(args, key)
            if key == "output_buckets" and value == 1 and given is not None:
                continue        # a one-bucket network spreads into any number (model.with_output_buckets)
            if key == "hidden" and given is not None and given > value:
                continue        # a network widens into more neurons (model.with_hidden)
            if given is not None and given != value:
                option = "--" + key.replace("_", "-")
                raise ValueError(f"{option} {given}, but --init {args.init} has {value}")
            setattr(args, key, value)
    for key, value in _SHAPE_DEFAULTS.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    return start


def _check(args) -> None:
    if args.hidden % 16 or not 16 <= args.hidden <= 2048:
        raise ValueError(f"--hidden {args.hidden} is not a multiple of 16 in 16..2048")
    if not 1 <= args.output_buckets <= MAX_BUCKETS:
        raise ValueError(f"--output-buckets {args.output_buckets} is not in 1..{MAX_BUCKETS}")
    if args.epochs < 0 or args.batch_size < 1 or args.lr <= 0 or args.sigmoid_scale <= 0:
        raise ValueError("--epochs must be >= 0; --batch-size, --lr and --sigmoid-scale positive")
    if args.init and args.resume:
        raise ValueError("--init and --resume both choose the starting weights: give one")
    if not 0 <= args.wdl <= 1:
        raise ValueError("--wdl must be in [0, 1]")
    if args.threads is not None and args.threads < 1:
        raise ValueError("--threads must be at least 1")
    if args.factorize and args.layout is None:
        raise ValueError("--factorize needs king buckets (--king-buckets K, or a version 3 --init)")


def run(args) -> int:
    try:
        start = _shape(args)
        _check(args)
    except ValueError as exc:
        return _fail(str(exc))
    try:
        import torch
    except ImportError:
        return _fail("PyTorch is not installed: pip install 'vireo-chess[train]' (or: pip install torch)")
    from .data import DataError, Dataset
    from .export import dequantize, export, worst_case_output_sum
    from .loop import TrainConfig, Trainer
    from .model import with_hidden, with_king_buckets, with_output_buckets

    device = ("cuda" if torch.cuda.is_available() else "cpu") if args.device == "auto" else args.device
    if device.startswith("cuda") and not torch.cuda.is_available():
        return _fail(f"--device {device}: this torch has no CUDA device (install its CUDA build, docs/nnue.md)")
    if args.threads:
        torch.set_num_threads(args.threads)
    config = TrainConfig(hidden=args.hidden, activation=ACTIVATIONS[args.activation], buckets=args.output_buckets,
                         king_buckets=args.layout, factorized=args.factorize,
                         epochs=args.epochs, batch_size=args.batch_size, lr=args.lr, wdl=args.wdl,
                         sigmoid_scale=args.sigmoid_scale, seed=args.seed,
                         mirror=args.mirror, device=device, progress=not args.quiet)
    try:
        dataset = Dataset(args.data, args.validation)
        trainer = Trainer(config, dataset)
        if args.resume:
            trainer.load(args.resume)
        if start is not None:
            model = with_hidden(dequantize(start), args.hidden, args.seed)
            model = with_king_buckets(model, args.layout, args.factorize)
            trainer.start_from(with_output_buckets(model, args.output_buckets).to(device))
    except (DataError, ValueError, OSError, RuntimeError) as exc:
        return _fail(str(exc))
    print(f"{len(dataset.train)} training and {len(dataset.valid)} validation positions; "
          f"{args.hidden}x2 {args.activation} network"
          f"{f', {args.output_buckets} output buckets' if args.output_buckets > 1 else ''}"
          f"{_king_words(args.layout)}{', factorized' if args.factorize else ''} on {device}"
          f"{f', starting from {args.init}' if args.init else ''}", flush=True)
    if args.baseline and len(dataset.valid):
        from .baseline import hand_written_loss
        loss = hand_written_loss(dataset.gather(dataset.valid), config.wdl, config.sigmoid_scale)
        print(f"hand-written evaluation: validation loss {loss:.6f}", flush=True)
    if start is not None and len(dataset.valid):
        print(f"{args.init} (the starting network): validation loss {trainer.validation_loss():.6f}", flush=True)
    started = time.monotonic()
    while trainer.epoch < config.epochs:
        report = trainer.run_epoch()
        valid = "-" if report.valid_loss is None else f"{report.valid_loss:.6f}"
        print(f"epoch {report.epoch}: train loss {report.train_loss:.6f}  validation loss {valid}  "
              f"lr {report.lr:.2e}  {report.seconds:.1f} s", flush=True)
        if args.checkpoint:
            trainer.save(args.checkpoint)
    print(f"trained in {time.monotonic() - started:.1f} s")
    if args.export:
        try:
            net = export(trainer.model, args.export)
        except (OSError, ValueError) as exc:
            return _fail(f"cannot export: {exc}")
        print(f"network written to {args.export}")
        if worst_case_output_sum(net) > 2**31 - 1:
            print(f"warning: with every activation saturated the output sum could reach "
                  f"{worst_case_output_sum(net)}, beyond int32 (real positions stay far below)", file=sys.stderr)
    return 0
