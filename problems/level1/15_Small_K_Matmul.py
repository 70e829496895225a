"""Matrix product with a short reduction (K = 64) and a large square output (24576 x 24576): output writes rival the FLOPs."""
import torch
import torch.nn as nn

M = 24576
N = 24576
K = 64

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 2048, "N": 2048}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 12289, "N": 16381, "K": 67}]
cpu_extra_sizes = [{"M": 1001, "N": 777, "K": 67}]


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
