"""Linear layer, BatchNorm1d with batch statistics (training mode), multiplication by a learned scalar
temperature, then softmax within each group of 64 consecutive features (router-style)."""
import torch
import torch.nn as nn

BATCH = 2048
IN_FEATURES = 4096
OUT_FEATURES = 5120
GROUP_SIZE = 64

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 128, "IN_FEATURES": 1024, "OUT_FEATURES": 1280}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 777}]
cpu_extra_sizes = [{"BATCH": 77}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, group_size: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.bn = nn.BatchNorm1d(out_features)
        self.temperature = nn.Parameter(torch.tensor(1.5))
        self.group_size = group_size

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        y = self.bn(y)
        y = y * self.temperature
        y = torch.softmax(y.view(y.shape[0], -1, self.group_size), dim=-1)
        return y.view(y.shape[0], -1)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, GROUP_SIZE]
