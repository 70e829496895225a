"""Inclusive prefix sum (torch.cumsum) along the last dimension of ROWS x 4096."""
import torch
import torch.nn as nn

ROWS = 163840
LENGTH = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 60013, "LENGTH": 4001}]
cpu_extra_sizes = [{"ROWS": 97, "LENGTH": 1001}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x, dim=self.dim)


def get_inputs():
    # Small steps keep the running sums O(1..10) and their fp32 rounding well inside 1e-4.
    x = torch.randn(ROWS, LENGTH).mul_(0.25)
    return [x]


def get_init_inputs():
    return [1]
