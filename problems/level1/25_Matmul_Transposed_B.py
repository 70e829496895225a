"""Matrix product with the right operand stored transposed, as in a bias-free linear layer: C = A @ B.T, A is M x K, B is N x K."""
import torch
import torch.nn as nn

M = 4096  # tokens
K = 2048  # input features
N = 8192  # output features

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 512, "N": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 2047, "K": 1531, "N": 5001}]
cpu_extra_sizes = [{"M": 333, "K": 999, "N": 555}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B.T)


def get_inputs():
    A = torch.randn(M, K) * K ** -0.5
    B = torch.randn(N, K)
    return [A, B]


def get_init_inputs():
    return []
