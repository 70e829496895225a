"""Product of two symmetric N x N matrices (N = 3584), C = A @ B; A == A.T and B == B.T hold for the inputs, so either may be read in whichever layout suits the kernel."""
import torch
import torch.nn as nn

N = 3584

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"N": 896}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"N": 2221}]
cpu_extra_sizes = [{"N": 445}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


def symmetric(n: int) -> torch.Tensor:
    x = torch.randn(n, n)
    return (x + x.T) * 0.5 ** 0.5  # off-diagonal entries keep unit variance


def get_inputs():
    A = symmetric(N) * N ** -0.5
    B = symmetric(N)
    return [A, B]


def get_init_inputs():
    return []
