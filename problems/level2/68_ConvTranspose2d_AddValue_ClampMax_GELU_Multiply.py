"""2D transposed convolution (kernel 4, stride 2), plus a constant, clamp from above, tanh-approximated
GELU, then multiplication by a constant."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 96
IN_CHANNELS = 64
OUT_CHANNELS = 64
HEIGHT = 56
WIDTH = 56
KERNEL_SIZE = 4
ADD_VALUE = 0.3
CLAMP_MAX = 0.8
MULTIPLY = 1.5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 14, "WIDTH": 14}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "HEIGHT": 53, "WIDTH": 47}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 11, "WIDTH": 9}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, add_value: float,
                 clamp_max: float, multiply: float):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=2, padding=1)
        self.add_value = add_value
        self.clamp_max = clamp_max
        self.multiply = multiply

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = y + self.add_value
        y = torch.clamp(y, max=self.clamp_max)
        y = F.gelu(y, approximate="tanh")
        return y * self.multiply


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, ADD_VALUE, CLAMP_MAX, MULTIPLY]
