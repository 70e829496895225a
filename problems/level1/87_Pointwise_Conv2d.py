"""Pointwise (1x1) 2D convolution expanding 256 -> 1024 channels on 56x56 feature maps, with bias
(NCHW), as in a ResNet-50 bottleneck. A GEMM over channels at every pixel, in channel-major layout.
"""
import torch
import torch.nn as nn

BATCH = 128
IN_CHANNELS = 256
OUT_CHANNELS = 1024
HEIGHT = 56
WIDTH = 56
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "IN_CHANNELS": 128, "OUT_CHANNELS": 256, "HEIGHT": 28, "WIDTH": 28}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 61, "HEIGHT": 47, "WIDTH": 53}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 19, "WIDTH": 23}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, bias: bool):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, BIAS]
