"""Matrix-vector product y = A @ x with A of M x K and x a K x 1 column; bound by reading A once (6 GB)."""
import torch
import torch.nn as nn

M = 24576
K = 61440

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 2048, "K": 16384}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 12289, "K": 40001}]
cpu_extra_sizes = [{"M": 1001, "K": 9999}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, x)


def get_inputs():
    A = torch.randn(M, K) * K ** -0.5
    x = torch.randn(K, 1)
    return [A, x]


def get_init_inputs():
    return []
