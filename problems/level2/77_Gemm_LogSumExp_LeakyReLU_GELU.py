"""Linear layer, LogSumExp over the output features (one value per row), LeakyReLU, then exact GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16384
IN_FEATURES = 1536
OUT_FEATURES = 2048
NEGATIVE_SLOPE = 0.01

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 512, "IN_FEATURES": 384, "OUT_FEATURES": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 6143}]
cpu_extra_sizes = [{"BATCH": 251}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, negative_slope: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        y = torch.logsumexp(y, dim=1, keepdim=True)
        y = F.leaky_relu(y, self.negative_slope)
        return F.gelu(y)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES) * 2.0
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, NEGATIVE_SLOPE]
