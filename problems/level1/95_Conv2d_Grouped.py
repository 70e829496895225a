"""Grouped 2D convolution, 8 groups of 64 -> 64 channels, 3x3 kernel, padding 1, with bias (NCHW)."""
import torch
import torch.nn as nn

BATCH = 64
IN_CHANNELS = 512
OUT_CHANNELS = 512
HEIGHT = 72
WIDTH = 72
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 1
GROUPS = 8
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 128, "OUT_CHANNELS": 128, "HEIGHT": 36, "WIDTH": 36}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "HEIGHT": 61, "WIDTH": 53}]
cpu_extra_sizes = [{"HEIGHT": 23, "WIDTH": 19}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 groups: int, bias: bool):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                              groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, GROUPS, BIAS]
