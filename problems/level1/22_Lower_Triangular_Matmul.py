"""Product of two lower-triangular N x N matrices (N = 4352), kept lower-triangular: C = tril(A @ B); only k in [j, i] contributes to C[i, j]."""
import torch
import torch.nn as nn

N = 4352

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"N": 1088}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"N": 2731}]
cpu_extra_sizes = [{"N": 601}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.tril(torch.matmul(A, B))


def get_inputs():
    A = torch.tril(torch.randn(N, N)) * N ** -0.5
    B = torch.tril(torch.randn(N, N))
    return [A, B]


def get_init_inputs():
    return []
