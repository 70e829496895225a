"""Sum reduction over dim=1, keeping the reduced dimension (output ROWS x 1)."""
import torch
import torch.nn as nn

ROWS = 40960
COLS = 32768

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 2048, "COLS": 4096}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 20479, "COLS": 24571}]
cpu_extra_sizes = [{"ROWS": 1001, "COLS": 3003}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim, keepdim=True)


def get_inputs():
    x = torch.randn(ROWS, COLS)
    return [x]


def get_init_inputs():
    return [1]
