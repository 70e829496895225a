"""Product of two input matrices, multiplication by a constant, residual add of a third input, clamp
to [-3, 3], LogSumExp over each row, then Mish: one value per row."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

M = 4096
K = 3072
N = 4096
SCALE = 1.5
CLAMP = 3.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 256, "K": 768, "N": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 2047, "N": 1531}, {"M": 1999, "K": 1037}]
cpu_extra_sizes = [{"M": 131, "K": 389, "N": 517}]


class Model(nn.Module):
    def __init__(self, scale: float, clamp: float):
        super().__init__()
        self.scale = scale
        self.clamp = clamp

    def forward(self, a: torch.Tensor, b: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        y = torch.matmul(a, b) * self.scale
        y = y + residual
        y = torch.clamp(y, -self.clamp, self.clamp)
        y = torch.logsumexp(y, dim=1, keepdim=True)
        return F.mish(y)


def get_inputs():
    a = torch.randn(M, K)
    b = torch.randn(K, N) / math.sqrt(K)
    residual = torch.randn(M, N)
    return [a, b, residual]


def get_init_inputs():
    return [SCALE, CLAMP]
