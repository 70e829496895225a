"""Depthwise 2D convolution (groups = channels) with an asymmetric 5x3 kernel, stride 2,
padding 2x1, on a 192x320 input, with bias (NCHW). Output is 96x160.
"""
import torch
import torch.nn as nn

BATCH = 64
CHANNELS = 288
HEIGHT = 192
WIDTH = 320
KERNEL_H = 5
KERNEL_W = 3
STRIDE = 2
PADDING_H = 2
PADDING_W = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "CHANNELS": 72, "HEIGHT": 96, "WIDTH": 160}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "HEIGHT": 157, "WIDTH": 211}]
cpu_extra_sizes = [{"HEIGHT": 53, "WIDTH": 97}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: list, stride: int, padding: list, bias: bool):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, stride=stride, padding=padding,
                              groups=channels, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, [KERNEL_H, KERNEL_W], STRIDE, [PADDING_H, PADDING_W], BIAS]
