"""2D downsampling convolution, 3x3 kernel, stride 2, padding 1, 128 -> 256 channels, no bias
(NCHW). A 224x224 input becomes 112x112.
"""
import torch
import torch.nn as nn

BATCH = 32
IN_CHANNELS = 128
OUT_CHANNELS = 256
HEIGHT = 224
WIDTH = 224
KERNEL_SIZE = 3
STRIDE = 2
PADDING = 1
BIAS = False

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 32, "OUT_CHANNELS": 64, "HEIGHT": 96, "WIDTH": 96}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 15, "HEIGHT": 183, "WIDTH": 157}]
cpu_extra_sizes = [{"HEIGHT": 53, "WIDTH": 41}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 bias: bool):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, BIAS]
