"""Grouped 3D transposed convolution (2 groups, stride 2), Softplus, multiplication by a learned
per-channel gate, then a residual add of the convolution output."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16
IN_CHANNELS = 64
OUT_CHANNELS = 64
DEPTH = 12
HEIGHT = 32
WIDTH = 32
KERNEL_SIZE = 3
GROUPS = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "DEPTH": 11, "HEIGHT": 27, "WIDTH": 31}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 3, "HEIGHT": 9, "WIDTH": 7}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, groups: int):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2, padding=1,
                                         output_padding=1, groups=groups)
        self.gate = nn.Parameter(torch.randn(out_channels, 1, 1, 1) * 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        z = F.softplus(y) * self.gate
        return z + y


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, GROUPS]
