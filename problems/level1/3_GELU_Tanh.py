"""Elementwise GELU using the tanh approximation."""
import torch
import torch.nn as nn
import torch.nn.functional as F

ROWS = 16384
COLS = 32768

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 4096, "COLS": 4096}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 8191, "COLS": 24575}]
cpu_extra_sizes = [{"ROWS": 2049, "COLS": 3001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(x, approximate="tanh")


def get_inputs():
    x = torch.randn(ROWS, COLS)
    return [x]


def get_init_inputs():
    return []
