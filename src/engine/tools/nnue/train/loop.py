"""Fitting the network: the loss, AdamW with a cosine learning-rate decay,
the validation loss after every epoch, checkpoints to resume from.

Loss (as in bullet and Stockfish's nnue-pytorch): the mean squared error
between sigmoid(eval / K) and the target  λ * result + (1 - λ) * sigmoid(score / K),
all from the side to move's view, eval = output * SCALE in centipawns and K the
sigmoid scale. λ = 0 learns the search scores alone, λ = 1 the results alone.

Deterministic for a given seed and thread count: the initial weights come
from torch's generator seeded with it, epoch e's shuffle from (seed, e).
"""
from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, field
from typing import List, Optional, Sequence, Union

import numpy as np
import torch
from tqdm import tqdm

from ..network_file import DEFAULT_SCALE, SCRELU
from .data import Dataset
from .features import as_layout, batch_features, describe_layout, mirrorable, same_layout
from .model import PerspectiveNet


@dataclass
class TrainConfig:
    hidden: int = 128
    activation: int = SCRELU
    buckets: int = 1                 # output buckets by piece count (network_file.output_bucket)
    # king buckets (network file version 3): None = the plain 768 features, a count K
    # (network_file.king_bucket_layout(K)) or a u8[64] map; checkpoints keep the map
    king_buckets: Union[None, int, Sequence[int]] = None
    factorized: bool = False         # king buckets as shared rows + each bucket's difference (model.py)
    epochs: int = 10
    batch_size: int = 16384
    lr: float = 1e-3
    lr_final_ratio: float = 0.01     # the cosine decay ends at lr * this
    weight_decay: float = 0.01
    wdl: float = 0.05                # λ, the weight of the game result in the target
    sigmoid_scale: float = 400.0     # K
    seed: int = 0
    mirror: bool = True              # reflect half the castling-free boards a <-> h (features.py)
    device: str = "cpu"
    progress: bool = True


@dataclass
class EpochReport:
    epoch: int
    train_loss: float
    valid_loss: Optional[float]
    lr: float
    seconds: float


@dataclass
class Trainer:
    config: TrainConfig
    dataset: Dataset
    model: PerspectiveNet = None
    history: List[EpochReport] = field(default_factory=list)
    epoch: int = 0                   # epochs done

    def __post_init__(self):
        torch.manual_seed(self.config.seed)
        self.layout = as_layout(self.config.king_buckets)       # u8[64] or None
        self.model = PerspectiveNet(self.config.hidden, self.config.activation, self.config.buckets,
                                    self.layout, self.config.factorized).to(self.config.device)
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=self.config.lr,
                                           weight_decay=self.config.weight_decay)
        self.steps_per_epoch = math.ceil(len(self.dataset.train) / self.config.batch_size)

    # -- pieces -------------------------------------------------------------

    def tensors(self, records, mirror=None):
        stm, other, score, result = batch_features(records, mirror, self.layout)
        device = self.config.device
        return (torch.from_numpy(stm).to(device), torch.from_numpy(other).to(device),
                torch.from_numpy(score).to(device), torch.from_numpy(result).to(device))

    def loss(self, stm, other, score, result) -> torch.Tensor:
        k = self.config.sigmoid_scale
        predicted = torch.sigmoid(self.model(stm, other) * DEFAULT_SCALE / k)
        target = self.config.wdl * result + (1 - self.config.wdl) * torch.sigmoid(score / k)
        return torch.mean((predicted - target) ** 2)

    def learning_rate(self, step: int) -> float:
        total = max(1, self.config.epochs * self.steps_per_epoch)
        low = self.config.lr * self.config.lr_final_ratio
        return low + 0.5 * (self.config.lr - low) * (1 + math.cos(math.pi * min(step, total) / total))

    @torch.no_grad()
    def validation_loss(self) -> Optional[float]:
        if not len(self.dataset.valid):
            return None
        total, count = 0.0, 0
        for records in self.dataset.batches(self.dataset.valid, self.config.batch_size):
            total += float(self.loss(*self.tensors(records))) * len(records)
            count += len(records)
        return total / count

    def start_from(self, model: PerspectiveNet) -> None:
        """Begin with these weights (a previous generation's network) instead
        of random ones; the optimizer starts afresh."""
        for key in ("hidden", "activation", "buckets"):
            if getattr(model, key) != getattr(self.config, key):
                raise ValueError(f"the network has {key} {getattr(model, key)}, this run {getattr(self.config, key)}")
        if not same_layout(model.king_buckets, self.layout):
            raise ValueError(f"the network has {describe_layout(model.king_buckets)}, "
                             f"this run {describe_layout(self.layout)}" + self._same_count(model.king_buckets))
        if model.factorized != self.config.factorized:
            raise ValueError(f"the network is {_factorized_words(model.factorized)}, "
                             f"this run {_factorized_words(self.config.factorized)}")
        self.model.load_state_dict(model.state_dict())

    def _same_count(self, other) -> str:
        """' (another map)' when two different king bucket maps have as many buckets."""
        return " (another map)" if describe_layout(other) == describe_layout(self.layout) else ""

    # -- the loop -----------------------------------------------------------

    def run_epoch(self) -> EpochReport:
        started = time.monotonic()
        rng = np.random.default_rng([self.config.seed, self.epoch])
        coins = np.random.default_rng([self.config.seed, self.epoch, 1])   # the shuffle stays as without
        step = self.epoch * self.steps_per_epoch
        total, count = 0.0, 0
        bar = tqdm(self.dataset.batches(self.dataset.train, self.config.batch_size, rng),
                   total=self.steps_per_epoch, desc=f"epoch {self.epoch + 1}/{self.config.epochs}",
                   unit="batch", disable=not self.config.progress, dynamic_ncols=True, leave=False)
        lr = self.config.lr
        for records in bar:
            lr = self.learning_rate(step)
            for group in self.optimizer.param_groups:
                group["lr"] = lr
            mirror = None
            if self.config.mirror:
                mirror = mirrorable(records) & (coins.random(len(records)) < 0.5)
            loss = self.loss(*self.tensors(records, mirror))
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            self.optimizer.step()
            self.model.clip_weights()
            total += loss.item() * len(records)
            count += len(records)
            step += 1
            bar.set_postfix_str(f"loss {total / count:.6f}", refresh=False)
        bar.close()
        self.epoch += 1
        report = EpochReport(self.epoch, total / count, self.validation_loss(), lr, time.monotonic() - started)
        self.history.append(report)
        return report

    # -- checkpoints --------------------------------------------------------

    def save(self, path) -> None:
        config = asdict(self.config)
        config["king_buckets"] = None if self.layout is None else [int(k) for k in self.layout]
        torch.save({"config": config, "epoch": self.epoch, "model": self.model.state_dict(),
                    "optimizer": self.optimizer.state_dict(),
                    "history": [asdict(r) for r in self.history]}, path)

    def load(self, path) -> None:
        state = torch.load(path, map_location=self.config.device, weights_only=True)
        saved = state["config"]
        for key in ("hidden", "activation", "buckets"):
            value = saved.get(key, 1)       # checkpoints older than output buckets had one
            if value != getattr(self.config, key):
                raise ValueError(f"checkpoint {path} has {key} {value}, this run {getattr(self.config, key)}")
        saved_layout = saved.get("king_buckets")      # checkpoints older than king buckets had none
        if not same_layout(saved_layout, self.layout):
            raise ValueError(f"checkpoint {path} has {describe_layout(saved_layout)}, "
                             f"this run {describe_layout(self.layout)}" + self._same_count(saved_layout))
        factorized = saved.get("factorized", False)     # checkpoints older than factorizing were not
        if factorized != self.config.factorized:
            raise ValueError(f"checkpoint {path} is {_factorized_words(factorized)}, "
                             f"this run {_factorized_words(self.config.factorized)}")
        self.config.seed = saved["seed"]     # the rest of the run shuffles as the run would have
        self.model.load_state_dict(state["model"])
        self.optimizer.load_state_dict(state["optimizer"])
        self.epoch = state["epoch"]
        self.history = [EpochReport(**r) for r in state["history"]]


def _factorized_words(factorized: bool) -> str:
    return "factorized" if factorized else "not factorized"
