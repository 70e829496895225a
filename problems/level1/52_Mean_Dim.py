"""Mean reduction over the middle dimension (dim=1, length 256) of a 3D tensor: a strided
reduction where consecutive outputs are adjacent in memory."""
import torch
import torch.nn as nn

BATCH = 160
REDUCE = 256
COLS = 32768

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8, "COLS": 2048}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 97, "REDUCE": 199, "COLS": 20001}]
cpu_extra_sizes = [{"BATCH": 5, "REDUCE": 77, "COLS": 1001}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.mean(x, dim=self.dim)


def get_inputs():
    # Scaled so the means over 256 values spread with std ~0.25 rather than collapsing to ~0.
    x = torch.randn(BATCH, REDUCE, COLS).mul_(4.0)
    return [x]


def get_init_inputs():
    return [1]
