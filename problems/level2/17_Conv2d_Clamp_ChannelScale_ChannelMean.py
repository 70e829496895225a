"""3x3 convolution (padding 1), clamp to a fixed range, multiplication by a learned per-channel
weight, then the mean over channels (one map per image)."""
import torch
import torch.nn as nn

BATCH = 32
IN_CHANNELS = 64
OUT_CHANNELS = 96
HEIGHT = 144
WIDTH = 144
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 36, "WIDTH": 36}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "HEIGHT": 109, "WIDTH": 107}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 27, "WIDTH": 25}]

CLAMP_MIN = -0.6
CLAMP_MAX = 0.8


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, clamp_min: float, clamp_max: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.weight = nn.Parameter(torch.randn(out_channels, 1, 1))
        self.clamp_min = clamp_min
        self.clamp_max = clamp_max

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.clamp(self.conv(x), self.clamp_min, self.clamp_max)
        y = y * self.weight
        return y.mean(dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, CLAMP_MIN, CLAMP_MAX]
