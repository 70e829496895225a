"""Linear layer with a long reduction (K = 8192), multiplication by a learned per-feature scale, then
BatchNorm1d with batch statistics (training mode)."""
import torch
import torch.nn as nn

BATCH = 2048
IN_FEATURES = 8192
OUT_FEATURES = 3072
EPS = 1e-5
MOMENTUM = 0.1

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 128, "IN_FEATURES": 2048, "OUT_FEATURES": 768}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 777}]
cpu_extra_sizes = [{"BATCH": 77}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int, eps: float, momentum: float):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = nn.Parameter(torch.randn(out_features))
        self.bn = nn.BatchNorm1d(out_features, eps=eps, momentum=momentum)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        y = y * self.scale
        return self.bn(y)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, EPS, MOMENTUM]
