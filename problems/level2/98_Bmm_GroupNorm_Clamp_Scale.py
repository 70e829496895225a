"""Batched matrix product of two inputs, read as (batch, channels, length), GroupNorm over the channels
(24 groups), clamp to [-2, 2], then multiplication by a learned per-channel scale."""
import math

import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 768
K = 1536
LENGTH = 2048
GROUPS = 24

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "K": 384, "LENGTH": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "LENGTH": 1531}, {"BATCH": 11, "K": 769}]
cpu_extra_sizes = [{"BATCH": 3, "K": 191, "LENGTH": 97}]


class Model(nn.Module):
    def __init__(self, channels: int, groups: int):
        super().__init__()
        self.norm = nn.GroupNorm(groups, channels)
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(channels) * 0.1)
            self.norm.bias.add_(torch.randn(channels) * 0.1)
        self.scale = nn.Parameter(torch.randn(channels, 1))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        y = torch.bmm(a, b)
        y = self.norm(y)
        y = torch.clamp(y, -2.0, 2.0)
        return y * self.scale


def get_inputs():
    a = torch.randn(BATCH, CHANNELS, K)
    b = torch.randn(BATCH, K, LENGTH) / math.sqrt(K)
    return [a, b]


def get_init_inputs():
    return [CHANNELS, GROUPS]
