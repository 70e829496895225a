"""Grouped 1D convolution (4 groups, kernel 5, padding 2), GroupNorm with one group per conv
group, then SiLU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
CHANNELS = 512
LENGTH = 4096
KERNEL_SIZE = 5
GROUPS = 4

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "LENGTH": 3067}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 157}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int, groups: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size, padding=kernel_size // 2, groups=groups)
        self.norm = nn.GroupNorm(groups, channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.silu(self.norm(self.conv(x)))


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE, GROUPS]
