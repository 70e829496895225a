"""2D transposed convolution (kernel 4, stride 2), Mish, plus a constant, Hardtanh to [-1, 1], then
multiplication by a constant."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 96
IN_CHANNELS = 32
OUT_CHANNELS = 64
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 4
ADD_VALUE = -0.25
SCALE = 2.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "HEIGHT": 59, "WIDTH": 61}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 13, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, add_value: float,
                 scale: float):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=2, padding=1)
        self.add_value = add_value
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = F.mish(y)
        y = y + self.add_value
        y = F.hardtanh(y, -1.0, 1.0)
        return y * self.scale


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, ADD_VALUE, SCALE]
