"""3D convolution (kernel 3, padding 1), LeakyReLU, clamp to a fixed range, then GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16
IN_CHANNELS = 32
OUT_CHANNELS = 64
DEPTH = 16
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 8, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 9, "DEPTH": 13, "HEIGHT": 51, "WIDTH": 49}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 7, "HEIGHT": 13, "WIDTH": 11}]

NEGATIVE_SLOPE = 0.2
CLAMP_MIN = -0.5
CLAMP_MAX = 1.0


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, negative_slope: float,
                 clamp_min: float, clamp_max: float):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.negative_slope = negative_slope
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.leaky_relu(self.conv(x), self.negative_slope)
        y = torch.clamp(y, self.clamp_min, self.clamp_max)
        return F.gelu(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, NEGATIVE_SLOPE, CLAMP_MIN, CLAMP_MAX]
