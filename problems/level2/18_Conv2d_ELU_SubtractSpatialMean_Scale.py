"""3x3 convolution (padding 1) on odd-sized maps, ELU, subtraction of each channel's spatial mean
(per image), then multiplication by a constant."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
IN_CHANNELS = 80
OUT_CHANNELS = 112
HEIGHT = 120
WIDTH = 120
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 30, "WIDTH": 30}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "HEIGHT": 91, "WIDTH": 89}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 21, "WIDTH": 23}]

SCALE = 1.75


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, scale: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.elu(self.conv(x))
        y = y - y.mean(dim=(2, 3), keepdim=True)
        return y * self.scale


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, SCALE]
