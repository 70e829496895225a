"""Linear layer, multiplication by a constant, Hardtanh to [-2, 2], then exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8192
IN_FEATURES = 2048
OUT_FEATURES = 3072
SCALE = 2.0
HT_MIN = -2.0
HT_MAX = 2.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 256, "IN_FEATURES": 512, "OUT_FEATURES": 768}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3001}]
cpu_extra_sizes = [{"BATCH": 131}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, scale: float, ht_min: float, ht_max: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale
        self.ht_min = ht_min
        self.ht_max = ht_max

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x) * self.scale
        y = F.hardtanh(y, self.ht_min, self.ht_max)
        return F.gelu(y)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, SCALE, HT_MIN, HT_MAX]
