"""3D convolution over video with an asymmetric 5x3x3 kernel (5 frames by 3x3 pixels), padding
2x1x1 (size preserved), with bias, on clips of 16 frames of 112x112 (NCDHW).
"""
import torch
import torch.nn as nn

BATCH = 4
IN_CHANNELS = 64
OUT_CHANNELS = 48
DEPTH = 16
HEIGHT = 112
WIDTH = 112
KERNEL_D = 5
KERNEL_H = 3
KERNEL_W = 3
PADDING_D = 2
PADDING_H = 1
PADDING_W = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "IN_CHANNELS": 16, "OUT_CHANNELS": 12, "DEPTH": 8, "HEIGHT": 24, "WIDTH": 24}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "DEPTH": 11, "HEIGHT": 83, "WIDTH": 97}]
cpu_extra_sizes = [{"DEPTH": 7, "HEIGHT": 17, "WIDTH": 19}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: list, padding: list, bias: bool):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, [KERNEL_D, KERNEL_H, KERNEL_W], [PADDING_D, PADDING_H, PADDING_W], BIAS]
