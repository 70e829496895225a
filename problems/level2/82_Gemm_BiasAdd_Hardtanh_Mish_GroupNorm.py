"""Linear layer, plus a learned per-feature bias, Hardtanh, Mish, then GroupNorm over the features
(32 groups)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4096
IN_FEATURES = 2048
OUT_FEATURES = 4096
GROUPS = 32

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 256, "IN_FEATURES": 512, "OUT_FEATURES": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 1531}]
cpu_extra_sizes = [{"BATCH": 131}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, groups: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.02)
        self.norm = nn.GroupNorm(groups, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x) + self.bias
        y = F.hardtanh(y)
        y = F.mish(y)
        return self.norm(y)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES) * 2.0
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, GROUPS]
