"""Product of two upper-triangular N x N matrices, kept upper-triangular: C = triu(A @ B); only k in [i, j] contributes to C[i, j]."""
import torch
import torch.nn as nn

N = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"N": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"N": 2731}]
cpu_extra_sizes = [{"N": 555}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.triu(torch.matmul(A, B))


def get_inputs():
    # C[i, j] sums j - i + 1 terms of variance 1/N: at most order 1.
    A = torch.triu(torch.randn(N, N)) * N ** -0.5
    B = torch.triu(torch.randn(N, N))
    return [A, B]


def get_init_inputs():
    return []
