"""Masked prefix sum along the last dimension: cumsum(x * mask), where the boolean mask (an
input) keeps about half of the elements."""
import torch
import torch.nn as nn

ROWS = 131072
LENGTH = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 40009, "LENGTH": 5001}]
cpu_extra_sizes = [{"ROWS": 97, "LENGTH": 1001}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x * mask, dim=self.dim)


def get_inputs():
    x = torch.randn(ROWS, LENGTH).mul_(0.3)
    mask = torch.rand(ROWS, LENGTH) > 0.5
    return [x, mask]


def get_init_inputs():
    return [1]
