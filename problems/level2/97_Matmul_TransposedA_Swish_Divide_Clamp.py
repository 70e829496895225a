"""Product A^T B of two inputs where A is stored K x M (transposed operand), Swish, division by a
constant, then clamp to [-0.1, 0.8]."""
import math

import torch
import torch.nn as nn

M = 4096
K = 4096
N = 3072
DIVISOR = 2.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 256, "K": 1024, "N": 768}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 2047, "N": 1531}, {"K": 1037}]
cpu_extra_sizes = [{"M": 131, "K": 517, "N": 389}]


class Model(nn.Module):
    def __init__(self, divisor: float):
        super().__init__()
        self.divisor = divisor

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        y = torch.matmul(a.T, b)
        y = y * torch.sigmoid(y)
        y = y / self.divisor
        return torch.clamp(y, -0.1, 0.8)


def get_inputs():
    a = torch.randn(K, M)
    b = torch.randn(K, N) * (1.5 / math.sqrt(K))
    return [a, b]


def get_init_inputs():
    return [DIVISOR]
