"""3D transposed convolution, 3x3x3 kernel, padding 1, on a short video clip (12 frames of 96x160),
with bias (NCDHW).
"""
import torch
import torch.nn as nn

BATCH = 8
IN_CHANNELS = 64
OUT_CHANNELS = 48
DEPTH = 12
HEIGHT = 96
WIDTH = 160
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 16, "OUT_CHANNELS": 12, "DEPTH": 6, "HEIGHT": 24, "WIDTH": 40}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "DEPTH": 9, "HEIGHT": 71, "WIDTH": 127}]
cpu_extra_sizes = [{"DEPTH": 5, "HEIGHT": 17, "WIDTH": 29}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                         padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, BIAS]
