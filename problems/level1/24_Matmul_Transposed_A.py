"""Matrix product with the left operand stored transposed: C = A.T @ B, A is K x M and B is K x N (row-major), C is M x N."""
import torch
import torch.nn as nn

M = 2048
K = 6144
N = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 512, "K": 2048, "N": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 1537, "K": 3001, "N": 2999}]
cpu_extra_sizes = [{"M": 333, "K": 1001, "N": 555}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A.T, B)


def get_inputs():
    A = torch.randn(K, M) * K ** -0.5
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []
