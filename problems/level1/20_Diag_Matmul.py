"""Diagonal matrix times a dense matrix, written as torch.diag(a) @ B; the same as scaling row i of B by a[i], without forming the N x N diagonal."""
import torch
import torch.nn as nn

N = 4096
M = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"N": 1024, "M": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"N": 2047, "M": 3001}]
cpu_extra_sizes = [{"N": 333, "M": 777}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.diag(a) @ B


def get_inputs():
    a = torch.randn(N)
    B = torch.randn(N, M)
    return [a, B]


def get_init_inputs():
    return []
