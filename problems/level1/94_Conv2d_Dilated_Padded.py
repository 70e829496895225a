"""2D atrous convolution: 3x3 kernel with dilation 3 and padding 3 (size preserved), with bias
(NCHW), as in a DeepLab-style context branch.
"""
import torch
import torch.nn as nn

BATCH = 20
IN_CHANNELS = 256
OUT_CHANNELS = 256
HEIGHT = 112
WIDTH = 112
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 3
DILATION = 3
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 64, "OUT_CHANNELS": 64, "HEIGHT": 28, "WIDTH": 28}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 9, "HEIGHT": 97, "WIDTH": 83}]
cpu_extra_sizes = [{"HEIGHT": 19, "WIDTH": 23}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 dilation: int, bias: bool):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                              dilation=dilation, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, DILATION, BIAS]
