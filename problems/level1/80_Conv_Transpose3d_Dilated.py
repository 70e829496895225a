"""3D transposed convolution, 3x3x3 kernel with dilation 2 and padding 2 (size preserved),
with bias (NCDHW).
"""
import torch
import torch.nn as nn

BATCH = 8
IN_CHANNELS = 48
OUT_CHANNELS = 32
DEPTH = 64
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 2
DILATION = 2
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 12, "OUT_CHANNELS": 8, "DEPTH": 16, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "DEPTH": 41, "HEIGHT": 47, "WIDTH": 53}]
cpu_extra_sizes = [{"DEPTH": 11, "HEIGHT": 9, "WIDTH": 13}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 dilation: int, bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                         padding=padding, dilation=dilation, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, DILATION, BIAS]
