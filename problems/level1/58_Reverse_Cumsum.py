"""Reverse (suffix) cumulative sum over the time dimension (dim=1) of batch x time x features:
y[:, t] = sum of x[:, t:], written as flip -> cumsum -> flip (e.g. returns-to-go)."""
import torch
import torch.nn as nn

BATCH = 24
TIME = 2048
FEATURES = 10240

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "FEATURES": 384}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 11, "TIME": 2001, "FEATURES": 10001}]
cpu_extra_sizes = [{"BATCH": 3, "TIME": 501, "FEATURES": 201}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumsum(x.flip(self.dim), dim=self.dim).flip(self.dim)


def get_inputs():
    x = torch.randn(BATCH, TIME, FEATURES).mul_(0.3)
    return [x]


def get_init_inputs():
    return [1]
