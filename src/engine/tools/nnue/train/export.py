"""The trained float network to the file the core loads (network_file.py):
feature weights and biases times QA, output weights times QB, the output
bias times QA*QB, rounded to the nearest integer. The weight clipping of
model.py keeps every value inside its integer type. A model with king
buckets writes its map too (a version 3 file); a factorized one writes each
bucket's rows with the shared rows added (the core never sees the split).

And back (`dequantize`): a network file as the float network whose
quantization it is, so that a new generation can start from the current
network's weights (`vireo train --init`)."""
from __future__ import annotations

import numpy as np
import torch

from ..network_file import DEFAULT_QA, DEFAULT_QB, DEFAULT_SCALE, SCRELU, Network, write_network
from .model import PerspectiveNet


def _quantize(values: torch.Tensor, factor: int, dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    scaled = np.rint(values.detach().cpu().double().numpy() * factor)
    return np.clip(scaled, info.min, info.max).astype(dtype)


def quantize(model: PerspectiveNet, qa: int = DEFAULT_QA, qb: int = DEFAULT_QB,
             scale: int = DEFAULT_SCALE) -> Network:
    net = Network(
        hidden=model.hidden, activation=model.activation, qa=qa, qb=qb, scale=scale,
        feature_weights=_quantize(model.feature_rows(), qa, np.int16),     # shared rows folded in
        feature_bias=_quantize(model.feature_bias, qa, np.int16),
        output_weights=_quantize(model.output.weight, qb, np.int16),       # [B, 2H]
        output_bias=_quantize(model.output.bias, qa * qb, np.int32),        # [B]
        king_buckets=None if model.king_buckets is None else model.king_buckets.copy(),
    )
    net.check()
    return net


def dequantize(net: Network) -> PerspectiveNet:
    """The float network that quantizes to `net` (exactly, for a file written
    with the default QA, QB and SCALE). A file of another SCALE has its output
    layer rescaled, because the float network's output is read times the
    default SCALE; weights past the trainer's clip are clipped. A version 3
    file gives a model with its king bucket map."""
    model = PerspectiveNet(net.hidden, net.activation, net.buckets, net.king_buckets)
    rescale = net.scale / DEFAULT_SCALE
    with torch.no_grad():
        model.features.weight[:net.inputs] = torch.from_numpy(net.feature_weights / net.qa)
        model.feature_bias[:] = torch.from_numpy(net.feature_bias / net.qa)
        model.output.weight[:] = torch.from_numpy(net.output_weights / net.qb * rescale)
        model.output.bias[:] = torch.from_numpy(net.output_bias / (net.qa * net.qb) * rescale)
    model.clip_weights()
    return model


def worst_case_output_sum(net: Network) -> int:
    """The largest |sum| the core's int32 output sum can reach: every activation
    saturated at QA (SCReLU: QA squared) on the output weights' own sign, in
    the bucket where that is largest."""
    peak = net.qa * net.qa if net.activation == SCRELU else net.qa
    return peak * int(np.abs(net.output_weights.astype(np.int64)).sum(axis=1).max())


def export(model: PerspectiveNet, path) -> Network:
    net = quantize(model)
    write_network(path, net)
    return net
