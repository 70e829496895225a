"""Grouped, dilated 3D convolution: 4 groups of 32 -> 32 channels, 3x3x3 kernel with dilation 2
and padding 2 (size preserved), no bias (NCDHW).
"""
import torch
import torch.nn as nn

BATCH = 8
IN_CHANNELS = 128
OUT_CHANNELS = 128
DEPTH = 48
HEIGHT = 48
WIDTH = 48
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 2
DILATION = 2
GROUPS = 4
BIAS = False

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 32, "OUT_CHANNELS": 32, "DEPTH": 12, "HEIGHT": 12, "WIDTH": 12}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "DEPTH": 37, "HEIGHT": 41, "WIDTH": 43}]
cpu_extra_sizes = [{"DEPTH": 7, "HEIGHT": 9, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 dilation: int, groups: int, bias: bool):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                              dilation=dilation, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, DILATION, GROUPS, BIAS]
