"""Strided 3D convolution (kernel 3, stride 2, padding 1) that widens the channels, Mish, tanh,
then a learned per-channel scale."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16
IN_CHANNELS = 32
OUT_CHANNELS = 128
DEPTH = 32
HEIGHT = 96
WIDTH = 96
KERNEL_SIZE = 3
STRIDE = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 8, "HEIGHT": 24, "WIDTH": 24}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 9, "DEPTH": 27, "HEIGHT": 75, "WIDTH": 73}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 7, "HEIGHT": 19, "WIDTH": 17}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, stride=stride, padding=kernel_size // 2)
        self.scale = nn.Parameter(1.0 + 0.2 * torch.randn(out_channels, 1, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.tanh(F.mish(self.conv(x)))
        return y * self.scale


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE]
