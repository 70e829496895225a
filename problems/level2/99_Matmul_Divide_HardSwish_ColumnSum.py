"""Product of two input matrices, division by sqrt(K), HardSwish, then sum over the rows: one value per
output column."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

M = 8192
K = 2048
N = 3072

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 512, "K": 512, "N": 768}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 2047}, {"M": 4001, "N": 1531}]
cpu_extra_sizes = [{"M": 257, "N": 389}]


class Model(nn.Module):
    def __init__(self, divisor: float):
        super().__init__()
        self.divisor = divisor

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        y = torch.matmul(a, b) / self.divisor
        y = F.hardswish(y)
        return y.sum(dim=0)


def get_inputs():
    a = torch.randn(M, K)
    b = torch.randn(K, N) * 2.0
    return [a, b]


def get_init_inputs():
    return [math.sqrt(K)]
