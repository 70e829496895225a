"""Exclusive prefix sum along the last dimension: y[:, 0] = 0 and y[:, i] = sum of x[:, :i],
written as a shifted cumsum concatenated after a column of zeros (rows of odd length 3000)."""
import torch
import torch.nn as nn

ROWS = 163840
LENGTH = 3000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 50021, "LENGTH": 4001}]
cpu_extra_sizes = [{"ROWS": 131, "LENGTH": 1999}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n = x.size(self.dim)
        first = torch.zeros_like(x.narrow(self.dim, 0, 1))
        rest = torch.cumsum(x.narrow(self.dim, 0, n - 1), dim=self.dim)
        return torch.cat([first, rest], dim=self.dim)


def get_inputs():
    # Positive-mean steps (like segment lengths or counts) so the offsets grow along each row.
    x = torch.rand(ROWS, LENGTH).mul_(0.5).add_(torch.randn(ROWS, 1).mul_(0.02))
    return [x]


def get_init_inputs():
    return [1]
