"""Dilated 1D convolution (kernel 3, dilation 8, padding 8), SELU, a learned per-channel bias,
then multiplication by a constant."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
CHANNELS = 256
LENGTH = 4096
KERNEL_SIZE = 3
DILATION = 8

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "LENGTH": 3067}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 157}]

SCALE = 0.5


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int, dilation: int, scale: float):
        super().__init__()
        padding = dilation * (kernel_size - 1) // 2
        self.conv = nn.Conv1d(channels, channels, kernel_size, padding=padding, dilation=dilation)
        self.bias = nn.Parameter(torch.randn(channels, 1) * 0.02)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.selu(self.conv(x)) + self.bias
        return y * self.scale


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE, DILATION, SCALE]
