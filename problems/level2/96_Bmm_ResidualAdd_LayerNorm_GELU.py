"""Batched matrix product of two inputs, residual add of a third input, LayerNorm over the last
dimension with learned affine parameters, then exact GELU."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
M = 1024
K = 1024
N = 1024

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "M": 128, "K": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "M": 1001}, {"BATCH": 17, "K": 511}]
cpu_extra_sizes = [{"BATCH": 3, "M": 97, "K": 301}]


class Model(nn.Module):
    def __init__(self, n: int):
        super().__init__()
        self.norm = nn.LayerNorm(n)
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(n) * 0.1)
            self.norm.bias.add_(torch.randn(n) * 0.1)

    def forward(self, a: torch.Tensor, b: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        y = torch.bmm(a, b) + residual
        y = self.norm(y)
        return F.gelu(y)


def get_inputs():
    a = torch.randn(BATCH, M, K)
    b = torch.randn(BATCH, K, N) / math.sqrt(K)
    residual = torch.randn(BATCH, M, N)
    return [a, b, residual]


def get_init_inputs():
    return [N]
