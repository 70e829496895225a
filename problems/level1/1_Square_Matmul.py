"""Square matrix multiplication C = A @ B with N x N fp32 operands."""
import torch
import torch.nn as nn

N = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"N": 2048}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"N": 2047}]
cpu_extra_sizes = [{"N": 999}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


def get_inputs():
    # A is scaled by 1/sqrt(N) so C has entries of order 1; with unscaled inputs (|C| ~ 45) the
    # fp32 rounding of cuBLAS itself is ~5e-4 away from the exact product, beyond a 1e-4 atol.
    A = torch.randn(N, N) * N ** -0.5
    B = torch.randn(N, N)
    return [A, B]


def get_init_inputs():
    return []
