"""3D transposed convolution with an asymmetric 3x5x7 kernel (padding 1x2x3, size preserved),
with bias (NCDHW).
"""
import torch
import torch.nn as nn

BATCH = 6
IN_CHANNELS = 32
OUT_CHANNELS = 32
DEPTH = 32
HEIGHT = 64
WIDTH = 64
KERNEL_D = 3
KERNEL_H = 5
KERNEL_W = 7
PADDING_D = 1
PADDING_H = 2
PADDING_W = 3
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 8, "OUT_CHANNELS": 8, "DEPTH": 8, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "DEPTH": 23, "HEIGHT": 47, "WIDTH": 53}]
cpu_extra_sizes = [{"DEPTH": 7, "HEIGHT": 11, "WIDTH": 13}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: list, padding: list, bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, [KERNEL_D, KERNEL_H, KERNEL_W], [PADDING_D, PADDING_H, PADDING_W], BIAS]
