"""Linear layer with an odd output width, elementwise minimum with a constant, then subtraction of the
same constant."""
import torch
import torch.nn as nn

BATCH = 4096
IN_FEATURES = 4096
OUT_FEATURES = 3000
CONSTANT = 0.5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 128, "IN_FEATURES": 1024, "OUT_FEATURES": 750}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 1531}]
cpu_extra_sizes = [{"BATCH": 77}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, constant: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.constant = constant

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        y = torch.clamp(y, max=self.constant)
        return y - self.constant


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, CONSTANT]
