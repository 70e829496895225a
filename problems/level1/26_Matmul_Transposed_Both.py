"""Matrix product with both operands stored transposed: C = A.T @ B.T, A is K x M, B is N x K, C is M x N."""
import torch
import torch.nn as nn

M = 3072
K = 3072
N = 6144

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 1024, "K": 1024, "N": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 1999, "K": 2047, "N": 3001}]
cpu_extra_sizes = [{"M": 333, "K": 555, "N": 777}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A.T, B.T)


def get_inputs():
    A = torch.randn(K, M) * K ** -0.5
    B = torch.randn(N, K)
    return [A, B]


def get_init_inputs():
    return []
