"""Linear layer without bias, division by a constant, sum over the output features, then
multiplication by a constant: one value per row."""
import torch
import torch.nn as nn

BATCH = 8192
IN_FEATURES = 2048
OUT_FEATURES = 2560
DIVISOR = 2.0
SCALE = 0.125

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 512, "IN_FEATURES": 512, "OUT_FEATURES": 640}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3001}]
cpu_extra_sizes = [{"BATCH": 251}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, divisor: float, scale: float):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features) / in_features ** 0.5)
        self.divisor = divisor
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.matmul(x, self.weight.T)
        y = y / self.divisor
        y = torch.sum(y, dim=1, keepdim=True)
        return y * self.scale


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, DIVISOR, SCALE]
