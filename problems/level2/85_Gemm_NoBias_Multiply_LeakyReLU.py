"""Bias-free linear layer with a long reduction (K = 5120), multiplication by a learned per-feature
factor, then LeakyReLU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 4096
IN_FEATURES = 5120
OUT_FEATURES = 2560
NEGATIVE_SLOPE = 0.1

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 128, "IN_FEATURES": 1280, "OUT_FEATURES": 640}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 1531}]
cpu_extra_sizes = [{"BATCH": 77}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, negative_slope: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features, bias=False)
        self.multiplier = nn.Parameter(torch.randn(out_features))
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x) * self.multiplier
        return F.leaky_relu(y, self.negative_slope)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, NEGATIVE_SLOPE]
