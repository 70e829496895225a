"""Depthwise-separable 2D convolution (MobileNet block without normalisation), no bias (NCHW):
a depthwise 3x3 convolution (groups = in_channels, padding 1) followed by a pointwise 1x1
convolution from in_channels to out_channels. A fused kernel can keep the depthwise result on chip.
"""
import torch
import torch.nn as nn

BATCH = 64
IN_CHANNELS = 256
OUT_CHANNELS = 512
HEIGHT = 112
WIDTH = 112
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 1
BIAS = False

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 64, "OUT_CHANNELS": 128, "HEIGHT": 56, "WIDTH": 56}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "HEIGHT": 97, "WIDTH": 83}]
cpu_extra_sizes = [{"HEIGHT": 37, "WIDTH": 29}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 bias: bool):
        super().__init__()
        self.depthwise = nn.Conv2d(in_channels, in_channels, kernel_size, stride=stride, padding=padding,
                                   groups=in_channels, bias=bias)
        self.pointwise = nn.Conv2d(in_channels, out_channels, 1, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pointwise(self.depthwise(x))


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, BIAS]
