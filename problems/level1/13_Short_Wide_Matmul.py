"""Short-wide product: a few rows (M = 192) times a very wide K x N matrix (N = 65536), like projecting a small batch of tokens onto a large vocabulary."""
import torch
import torch.nn as nn

M = 192
K = 4096
N = 65536

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"N": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 97, "K": 3001, "N": 40001}]
cpu_extra_sizes = [{"M": 77, "K": 1001, "N": 777}]


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
