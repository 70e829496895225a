"""Batched matrix product (bmm): C[b] = A[b] @ B[b] for 128 independent 512 x 1024 by 1024 x 768 products."""
import torch
import torch.nn as nn

BATCH = 128
M = 512
K = 1024
N = 768

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "M": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 53, "M": 511, "K": 999, "N": 769}]
cpu_extra_sizes = [{"BATCH": 3, "M": 129, "K": 333, "N": 255}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


def get_inputs():
    A = torch.randn(BATCH, M, K) * K ** -0.5
    B = torch.randn(BATCH, K, N)
    return [A, B]


def get_init_inputs():
    return []
