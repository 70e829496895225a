"""Matrix product with odd, non-power-of-two sizes (3001 x 4999 by 4999 x 3527): rows are not 16-byte aligned and no dimension divides a tile."""
import torch
import torch.nn as nn

M = 3001
K = 4999
N = 3527

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 601, "K": 999, "N": 727}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 1999, "K": 2999, "N": 2503}]
cpu_extra_sizes = [{"M": 333, "K": 555, "N": 401}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


def get_inputs():
    A = torch.randn(M, K) * K ** -0.5
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []
