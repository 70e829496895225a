"""Linear layer followed by Mish applied twice."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8192
IN_FEATURES = 3072
OUT_FEATURES = 2048

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 256, "IN_FEATURES": 768, "OUT_FEATURES": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3001}]
cpu_extra_sizes = [{"BATCH": 131}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        y = F.mish(y)
        return F.mish(y)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES) * 2.0
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
