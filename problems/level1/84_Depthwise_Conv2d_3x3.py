"""Depthwise 2D convolution (groups = channels), 3x3 kernel, stride 1, padding 1, with bias (NCHW).

Each channel is filtered by its own 3x3 kernel: 9 multiply-adds per output, so the op is bound
by memory traffic, not arithmetic.
"""
import torch
import torch.nn as nn

BATCH = 64
CHANNELS = 384
HEIGHT = 160
WIDTH = 160
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "CHANNELS": 96, "HEIGHT": 64, "WIDTH": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "HEIGHT": 127, "WIDTH": 149}]
cpu_extra_sizes = [{"HEIGHT": 37, "WIDTH": 41}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int, stride: int, padding: int, bias: bool):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, stride=stride, padding=padding,
                              groups=channels, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE, STRIDE, PADDING, BIAS]
