"""Linear layer, 1D average pooling over groups of 4 features, exact GELU, multiplication by a
constant, then maximum over the pooled features: one value per row."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8192
IN_FEATURES = 2048
OUT_FEATURES = 3072
POOL = 4
SCALE = 2.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 512, "IN_FEATURES": 512, "OUT_FEATURES": 768}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3001}]
cpu_extra_sizes = [{"BATCH": 251}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, pool: int, scale: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.pool = nn.AvgPool1d(pool)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        y = self.pool(y.unsqueeze(1)).squeeze(1)
        y = F.gelu(y) * self.scale
        return torch.amax(y, dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, POOL, SCALE]
