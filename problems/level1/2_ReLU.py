"""Elementwise ReLU over a large (2.25 GiB) fp32 matrix; a memory-bandwidth benchmark."""
import torch
import torch.nn as nn

ROWS = 24576
COLS = 24576

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 16384, "COLS": 16384}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 10007, "COLS": 24571}]
cpu_extra_sizes = [{"ROWS": 3001, "COLS": 5003}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


def get_inputs():
    x = torch.randn(ROWS, COLS)
    return [x]


def get_init_inputs():
    return []
