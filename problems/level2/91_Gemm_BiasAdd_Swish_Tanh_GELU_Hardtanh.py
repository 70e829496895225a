"""Linear layer, plus a learned per-feature bias, Swish, tanh, exact GELU, then Hardtanh to
[-0.5, 0.5]."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4096
IN_FEATURES = 2560
OUT_FEATURES = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 256, "IN_FEATURES": 640, "OUT_FEATURES": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 1531}]
cpu_extra_sizes = [{"BATCH": 131}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x) + self.bias
        y = y * torch.sigmoid(y)
        y = torch.tanh(y)
        y = F.gelu(y)
        return F.hardtanh(y, -0.5, 0.5)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES) * 2.0
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
