"""Matrix product with a long reduction: small M x N output (512 x 512) from K = 196608; a split-K problem."""
import torch
import torch.nn as nn

M = 512
N = 512
K = 196608

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 128, "N": 128, "K": 32768}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 257, "N": 383, "K": 100003}]
cpu_extra_sizes = [{"M": 67, "N": 99, "K": 20001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


def get_inputs():
    # With A scaled by 1/sqrt(K) every output is a sum of K terms of variance 1/K: order 1.
    A = torch.randn(M, K) * K ** -0.5
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []
