"""Linear layer, sigmoid, multiplication by a constant, then a residual add of the linear output."""
import torch
import torch.nn as nn

BATCH = 6144
IN_FEATURES = 2048
OUT_FEATURES = 4096
SCALE = 2.5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 256, "IN_FEATURES": 512, "OUT_FEATURES": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 2047}]
cpu_extra_sizes = [{"BATCH": 127}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, scale: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        z = torch.sigmoid(y) * self.scale
        return z + y


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, SCALE]
