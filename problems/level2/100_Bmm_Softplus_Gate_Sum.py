"""Batched matrix product of two inputs, Softplus, elementwise multiplication by a third (gate) input,
then sum over the last dimension."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
M = 512
K = 1024
N = 1024

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "M": 128, "K": 512, "N": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 255, "N": 511}, {"BATCH": 37, "K": 509}]
cpu_extra_sizes = [{"BATCH": 3, "M": 97, "K": 301, "N": 203}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor, gate: torch.Tensor) -> torch.Tensor:
        y = F.softplus(torch.bmm(a, b))
        y = y * gate
        return y.sum(dim=-1)


def get_inputs():
    a = torch.randn(BATCH, M, K)
    b = torch.randn(BATCH, K, N) / math.sqrt(K)
    gate = torch.randn(BATCH, M, N)
    return [a, b, gate]


def get_init_inputs():
    return []
