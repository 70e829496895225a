"""Cumulative product (torch.cumprod) over the time dimension (dim=1) of per-channel decay factors
near 1, shape batch x time x channels, as in the cumulative gates of a linear recurrence."""
import torch
import torch.nn as nn

BATCH = 64
TIME = 1024
CHANNELS = 10240

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "CHANNELS": 640}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "TIME": 999, "CHANNELS": 10007}]
cpu_extra_sizes = [{"BATCH": 3, "TIME": 301, "CHANNELS": 333}]


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.cumprod(x, dim=self.dim)


def get_inputs():
    # Factors 1 + 0.02 * N(0, 1): products over 1024 steps stay within roughly exp(+-2).
    x = torch.randn(BATCH, TIME, CHANNELS).mul_(0.02).add_(1.0)
    return [x]


def get_init_inputs():
    return [1]
