"""Strided 3x3 convolution (stride 2, padding 1) that widens the channels, GELU, then adaptive
average pooling to a small fixed grid."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
IN_CHANNELS = 64
OUT_CHANNELS = 256
HEIGHT = 160
WIDTH = 160
KERNEL_SIZE = 3
STRIDE = 2
POOLED = 10

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 60, "WIDTH": 60}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "HEIGHT": 121, "WIDTH": 117}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 43, "WIDTH": 41}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, pooled: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=kernel_size // 2)
        self.pool = nn.AdaptiveAvgPool2d(pooled)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.gelu(self.conv(x))
        return self.pool(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, POOLED]
