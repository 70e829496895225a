"""3D downsampling convolution, 3x3x3 kernel, stride 2, padding 1, 64 -> 128 channels, with bias,
on a 32x160x160 volume (NCDHW). Output is 16x80x80.
"""
import torch
import torch.nn as nn

BATCH = 6
IN_CHANNELS = 64
OUT_CHANNELS = 128
DEPTH = 32
HEIGHT = 160
WIDTH = 160
KERNEL_SIZE = 3
STRIDE = 2
PADDING = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 16, "OUT_CHANNELS": 32, "DEPTH": 16, "HEIGHT": 40, "WIDTH": 40}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "DEPTH": 23, "HEIGHT": 97, "WIDTH": 113}]
cpu_extra_sizes = [{"DEPTH": 11, "HEIGHT": 29, "WIDTH": 23}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 bias: bool):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, BIAS]
