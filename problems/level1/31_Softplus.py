"""Elementwise Softplus log(1 + exp(beta * x)) / beta with beta 2 and linear above beta * x > 20, over an odd-sized 24000 x 33333 matrix."""
import torch
import torch.nn as nn
import torch.nn.functional as F

ROWS = 24000
COLS = 33333
BETA = 2.0
THRESHOLD = 20.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"ROWS": 120}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 9999, "COLS": 30001}]
cpu_extra_sizes = [{"ROWS": 77, "COLS": 9999}]


class Model(nn.Module):
    def __init__(self, beta: float, threshold: float):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.softplus(x, beta=self.beta, threshold=self.threshold)


def get_inputs():
    # Standard deviation 4 puts about 0.6% of the inputs past the threshold (beta * x > 20),
    # so both branches are exercised.
    x = torch.randn(ROWS, COLS) * 4.0
    return [x]


def get_init_inputs():
    return [BETA, THRESHOLD]
