"""Strided 1D convolution over a long signal (kernel 8, stride 4, padding 2), ReLU6, then adaptive
max pooling of the length down to a fixed number of bins."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
IN_CHANNELS = 64
OUT_CHANNELS = 256
LENGTH = 24576
KERNEL_SIZE = 8
STRIDE = 4
BINS = 128

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 2048}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "LENGTH": 18433}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 1237}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, bins: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=2)
        self.pool = nn.AdaptiveMaxPool1d(bins)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu6(self.conv(x))
        return self.pool(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, BINS]
