"""Linear layer followed by maxout (maximum over groups of 4 consecutive features), subtraction of each
row's mean, then exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8192
IN_FEATURES = 1024
OUT_FEATURES = 6144
PIECES = 4

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 256, "IN_FEATURES": 512, "OUT_FEATURES": 1536}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3001}]
cpu_extra_sizes = [{"BATCH": 131}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, pieces: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.pieces = pieces

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        y = y.view(y.shape[0], -1, self.pieces).amax(dim=-1)
        y = y - y.mean(dim=1, keepdim=True)
        return F.gelu(y)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, PIECES]
