"""Strided 1D convolution (kernel 4, stride 2, padding 1) that halves the length, Hardtanh, average
pooling over windows of 4, then a learned per-channel scale."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
IN_CHANNELS = 128
OUT_CHANNELS = 256
LENGTH = 12288
KERNEL_SIZE = 4
STRIDE = 2
POOL = 4

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "LENGTH": 9221}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 619}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, pool: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=1)
        self.pool = nn.AvgPool1d(pool)
        self.scale = nn.Parameter(1.0 + 0.3 * torch.randn(out_channels, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.hardtanh(self.conv(x))
        y = self.pool(y)
        return y * self.scale


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, POOL]
