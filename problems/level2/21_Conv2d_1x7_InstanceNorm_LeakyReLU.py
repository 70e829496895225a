"""Asymmetric 1x7 convolution (padding 0x3, as in Inception factorised blocks), InstanceNorm2d
with a learned affine, then LeakyReLU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
IN_CHANNELS = 96
OUT_CHANNELS = 96
HEIGHT = 128
WIDTH = 128
KERNEL_WIDTH = 7

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 32, "WIDTH": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "HEIGHT": 97, "WIDTH": 93}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 23, "WIDTH": 21}]

NEGATIVE_SLOPE = 0.1


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_width: int, negative_slope: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, (1, kernel_width), padding=(0, kernel_width // 2))
        self.norm = nn.InstanceNorm2d(out_channels, affine=True)
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.norm(self.conv(x))
        return F.leaky_relu(y, self.negative_slope)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_WIDTH, NEGATIVE_SLOPE]
