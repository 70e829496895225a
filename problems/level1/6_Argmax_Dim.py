"""Index of the maximum along dim=1 (int64 output, one index per row)."""
import torch
import torch.nn as nn

ROWS = 32768
COLS = 32768

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 1024, "COLS": 8192}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 16383, "COLS": 20001}]
cpu_extra_sizes = [{"ROWS": 333, "COLS": 5001}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=self.dim)


def get_inputs():
    x = torch.randn(ROWS, COLS)
    return [x]


def get_init_inputs():
    return [1]
