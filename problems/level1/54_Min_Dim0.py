"""Minimum over the outermost dimension (dim=0) of a stack of 256 maps of 2048 x 2560: an
elementwise min across slices that are far apart in memory."""
import torch
import torch.nn as nn

STACK = 256
ROWS = 2048
COLS = 2560

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 64, "COLS": 320}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"STACK": 199, "ROWS": 1023, "COLS": 2047}]
cpu_extra_sizes = [{"STACK": 37, "ROWS": 29, "COLS": 111}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.min(x, dim=self.dim).values


def get_inputs():
    x = torch.randn(STACK, ROWS, COLS)
    return [x]


def get_init_inputs():
    return [0]
