"""Tall-skinny product: a very tall A (M x K, M >> K) times a small K x N matrix gives a tall, narrow M x N output."""
import torch
import torch.nn as nn

M = 196608
K = 1024
N = 256

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 2048}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 80001, "K": 1001, "N": 257}]
cpu_extra_sizes = [{"M": 1001, "K": 513, "N": 129}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


def get_inputs():
    # Scaling A by 1/sqrt(K) keeps the output entries of order 1 (fp32 rounding stays under 1e-4).
    A = torch.randn(M, K) * K ** -0.5
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []
