"""The float network the trainer fits; network_file.py is what it becomes.

768 features per side (768 * K with K king buckets, network file version 3:
features.py and network_file.king_context) -> H accumulator neurons (one
shared weight matrix, a bias) -> clipped activation of both sides'
accumulators, side to move first -> one output, from one of B output buckets chosen by the number of pieces
on the board (network_file.output_bucket; B = 1 is the plain network). The
output times network_file's SCALE is the evaluation in centipawns.
Activations clip to [0, 1], which quantization maps to [0, QA].

A factorized network (king buckets only) trains each feature's weights as
two parts: a row shared by every king bucket (the plain 768 features) plus
the bucket's own difference from it; the file holds their sum
(`feature_rows`). Every position teaches the shared row, so a bucket that
few positions reach still learns what the piece is worth in general and
keeps only what is special to its kings (nnue-pytorch's "virtual" or
factorized features, used there for HalfKP's king squares).
"""
from __future__ import annotations

import torch
from torch import nn

from ..network_file import CRELU, DEFAULT_QA, DEFAULT_QB, INPUTS, SCRELU, check_buckets
from .features import as_layout, describe_layout, king_bucket_count, same_layout

# Weight bounds that keep the quantized file in range (bullet uses the same
# 1.98 for both): an output weight times QB = 64 stays within int8 (127), so
# the core may multiply activations by it in 16 bits; a feature weight times
# QA = 255 is at most 505, so a bias plus 32 features stay far inside int16.
WEIGHT_CLIP = 1.98
assert WEIGHT_CLIP * DEFAULT_QB <= 127 and (1 + 32) * WEIGHT_CLIP * DEFAULT_QA < 32767


class PerspectiveNet(nn.Module):
    def __init__(self, hidden: int = 128, activation: int = SCRELU, buckets: int = 1, king_buckets=None,
                 factorized: bool = False):
        """king_buckets: None (the plain 768 features), a count K
        (network_file.king_bucket_layout(K)) or a u8[64] map. factorized: train
        the king buckets' feature rows as a shared row plus each bucket's
        difference (the module's docstring)."""
        super().__init__()
        if hidden % 16 or not 16 <= hidden <= 2048:
            raise ValueError(f"hidden size {hidden} is not a multiple of 16 in 16..2048")
        check_buckets(buckets)
        self.hidden = hidden
        self.activation = activation
        self.buckets = buckets
        self.king_buckets = as_layout(king_buckets)       # u8[64] or None; not a parameter
        self.inputs = INPUTS * king_bucket_count(self.king_buckets)
        self.pad = self.inputs                              # features.pad(self.king_buckets)
        # one extra all-zero row (the padding index) absorbs the padding of boards with < 32 pieces
        self.features = nn.EmbeddingBag(self.inputs + 1, hidden, mode="sum", padding_idx=self.pad)
        self.feature_bias = nn.Parameter(torch.zeros(hidden))
        self.output = nn.Linear(2 * hidden, buckets)   # row b: bucket b's output weights
        self.factorized = bool(factorized)
        if self.factorized:
            if self.king_buckets is None:
                raise ValueError("a factorized network needs king buckets")
            # the shared rows, indexed by feature % 768; row INPUTS is the padding
            self.factor = nn.EmbeddingBag(INPUTS + 1, hidden, mode="sum", padding_idx=INPUTS)
        with torch.no_grad():
            # about 30 pieces per board: accumulators start near N(0, 0.3)
            self.features.weight.normal_(0.0, 0.05)
            self.features.weight[self.pad].zero_()
            self.feature_bias.uniform_(0.0, 0.3)
            if self.factorized:
                self.factor.weight.zero_()      # the buckets' random rows are the whole start

    def activate(self, accumulator: torch.Tensor) -> torch.Tensor:
        clipped = accumulator.clamp(0.0, 1.0)
        return clipped * clipped if self.activation == SCRELU else clipped

    def accumulate(self, indices: torch.Tensor) -> torch.Tensor:
        total = self.features(indices) + self.feature_bias
        if self.factorized:
            shared = torch.where(indices == self.pad, INPUTS, indices % INPUTS)
            total = total + self.factor(shared)
        return total

    def feature_rows(self) -> torch.Tensor:
        """The feature weights as the file holds them, [inputs, H]: a
        factorized network's shared rows added into every king bucket's."""
        rows = self.features.weight[:self.inputs]
        if self.factorized:
            rows = rows + self.factor.weight[:INPUTS].repeat(self.inputs // INPUTS, 1)
        return rows

    def forward(self, stm: torch.Tensor, other: torch.Tensor) -> torch.Tensor:
        us = self.activate(self.accumulate(stm))
        them = self.activate(self.accumulate(other))
        outputs = self.output(torch.cat([us, them], dim=1))
        if self.buckets == 1:
            return outputs.squeeze(1)
        pieces = (stm != self.pad).sum(dim=1)
        bucket = ((pieces - 2) * self.buckets // 32).clamp(0, self.buckets - 1)
        return outputs.gather(1, bucket.unsqueeze(1)).squeeze(1)

    @torch.no_grad()
    def clip_weights(self) -> None:
        if self.factorized:
            # the bound holds for the sums the file will hold, not the parts
            self.factor.weight.clamp_(-WEIGHT_CLIP, WEIGHT_CLIP)
            shared = self.factor.weight[:INPUTS].repeat(self.inputs // INPUTS, 1)
            folded = (self.features.weight[:self.inputs] + shared).clamp_(-WEIGHT_CLIP, WEIGHT_CLIP)
            self.features.weight[:self.inputs] = folded - shared
        else:
            self.features.weight.clamp_(-WEIGHT_CLIP, WEIGHT_CLIP)
        self.feature_bias.clamp_(-WEIGHT_CLIP, WEIGHT_CLIP)
        self.output.weight.clamp_(-WEIGHT_CLIP, WEIGHT_CLIP)


def with_output_buckets(model: PerspectiveNet, buckets: int) -> PerspectiveNet:
    """A one-bucket network as a B-bucket one that computes the same output:
    its output layer copied into every bucket, which training then lets
    specialize by the piece count (`vireo train --init NET --output-buckets B`)."""
    if model.buckets == buckets:
        return model
    if model.buckets != 1:
        raise ValueError(f"only a one-bucket network spreads into buckets, not one of {model.buckets}")
    grown = PerspectiveNet(model.hidden, model.activation, buckets, model.king_buckets, model.factorized)
    with torch.no_grad():
        grown.features.weight.copy_(model.features.weight)
        if model.factorized:
            grown.factor.weight.copy_(model.factor.weight)
        grown.feature_bias.copy_(model.feature_bias)
        grown.output.weight.copy_(model.output.weight.expand(buckets, -1))
        grown.output.bias.copy_(model.output.bias.expand(buckets))
    return grown.to(model.feature_bias.device)


def with_hidden(model: PerspectiveNet, hidden: int, seed: int = 0) -> PerspectiveNet:
    """A network as a wider one that computes the same output: its H
    accumulator neurons kept, the new ones as a new network of this seed
    starts them (random feature weights and biases) but with output weights
    of zero, so they change nothing until training gives them a use
    (`vireo train --init NET --hidden H2`; net2net's widening, Chen et al.
    2015). Each new neuron's output weights get gradients from the start
    (its activation is not zero), and through them its feature weights."""
    if hidden == model.hidden:
        return model
    if hidden < model.hidden:
        raise ValueError(f"a network of {model.hidden} neurons cannot shrink to {hidden}")
    with torch.random.fork_rng(devices=[]):     # the trainer's own random stream stays untouched
        torch.manual_seed(seed)
        grown = PerspectiveNet(hidden, model.activation, model.buckets, model.king_buckets, model.factorized)
    old = model.hidden
    with torch.no_grad():
        grown.features.weight[:, :old] = model.features.weight
        grown.feature_bias[:old] = model.feature_bias
        if model.factorized:
            grown.factor.weight[:, :old] = model.factor.weight      # new columns start at zero
        # output row: [us 0..H-1, them 0..H-1] -> [us old, us new, them old, them new]
        grown.output.weight.zero_()
        grown.output.weight[:, :old] = model.output.weight[:, :old]
        grown.output.weight[:, hidden:hidden + old] = model.output.weight[:, old:]
        grown.output.bias.copy_(model.output.bias)
    return grown.to(model.feature_bias.device)


def with_king_buckets(model: PerspectiveNet, king_buckets, factorized: bool = False) -> PerspectiveNet:
    """A network of one king bucket (the plain 768 features, or version 3 with
    K = 1) as one with this king bucket map: its 768 feature rows copied into
    every bucket, which training then lets specialize by the king's square
    (`vireo train --init NET --king-buckets K`). From K = 1 it computes the
    same evaluations; from the plain network it is a starting point, not the
    same network: a perspective whose king stands on files e-h now sees the
    board mirrored a <-> h, so the evaluations differ wherever the plain
    network was not symmetric between the wings.

    factorized: the 768 rows become the shared rows and every bucket's
    difference starts at zero (the same evaluations as without); a network
    that already has this map keeps its rows as the buckets' own, with
    shared rows of zero."""
    layout = as_layout(king_buckets)
    if same_layout(model.king_buckets, layout):
        return factorize(model) if factorized else model
    if layout is None:
        raise ValueError(f"a network of {describe_layout(model.king_buckets)} cannot lose them")
    if model.king_buckets is not None and king_bucket_count(model.king_buckets) != 1:
        raise ValueError(f"only a network of one king bucket spreads into king buckets, not one of "
                         f"{describe_layout(model.king_buckets)}")
    grown = PerspectiveNet(model.hidden, model.activation, model.buckets, layout, factorized)
    with torch.no_grad():
        rows = model.feature_rows()[:INPUTS]
        if factorized:
            grown.factor.weight[:INPUTS] = rows
            grown.features.weight.zero_()
        else:
            grown.features.weight[:grown.inputs] = rows.repeat(grown.inputs // INPUTS, 1)
            grown.features.weight[grown.pad].zero_()
        grown.feature_bias.copy_(model.feature_bias)
        grown.output.weight.copy_(model.output.weight)
        grown.output.bias.copy_(model.output.bias)
    return grown.to(model.feature_bias.device)


def factorize(model: PerspectiveNet) -> PerspectiveNet:
    """A king-bucketed network as a factorized one that computes the same:
    its feature rows as the buckets' own, the shared rows zero."""
    if model.factorized:
        return model
    split = PerspectiveNet(model.hidden, model.activation, model.buckets, model.king_buckets, factorized=True)
    missing, _ = split.load_state_dict(model.state_dict(), strict=False)
    assert missing == ["factor.weight"]      # the shared rows alone, left at zero
    return split.to(model.feature_bias.device)
