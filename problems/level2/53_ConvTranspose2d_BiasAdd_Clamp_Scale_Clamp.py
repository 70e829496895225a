"""2D transposed convolution (kernel 4, stride 2), plus a learned per-channel bias, clamp to [-1, 1],
multiply by a constant, clamp to [-1, 1] again, and divide by the same constant."""
import torch
import torch.nn as nn

BATCH = 64
IN_CHANNELS = 64
OUT_CHANNELS = 64
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 4
SCALE = 1.75

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "HEIGHT": 61, "WIDTH": 47}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 13, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, scale: float):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=2, padding=1)
        self.bias = nn.Parameter(torch.randn(out_channels, 1, 1) * 0.02)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x) + self.bias
        y = torch.clamp(y, -1.0, 1.0)
        y = y * self.scale
        y = torch.clamp(y, -1.0, 1.0)
        return y / self.scale


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, SCALE]
