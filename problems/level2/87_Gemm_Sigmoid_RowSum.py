"""Linear layer, sigmoid, then sum over the output features: one value per row."""
import torch
import torch.nn as nn

BATCH = 4096
IN_FEATURES = 3072
OUT_FEATURES = 3072

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 512, "IN_FEATURES": 768, "OUT_FEATURES": 768}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 1531}]
cpu_extra_sizes = [{"BATCH": 251}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.sigmoid(self.linear(x))
        return y.sum(dim=1, keepdim=True)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES) * 3.0
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
