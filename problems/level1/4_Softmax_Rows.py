"""Row-wise softmax (dim=1); inputs are shifted so high that exp() without max subtraction overflows fp32."""
import torch
import torch.nn as nn

ROWS = 524288
COLS = 1024  # wide enough for a real reduction, narrow enough that few outputs are near 0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 16384, "COLS": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 100003, "COLS": 1531}]
cpu_extra_sizes = [{"ROWS": 3001, "COLS": 1531}]

SCALE = 1.0
SHIFT = 90.0  # exp(x) overflows fp32 for x > ~88.7


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=1)


def get_inputs():
    x = torch.randn(ROWS, COLS) * SCALE + SHIFT
    return [x]


def get_init_inputs():
    return []
