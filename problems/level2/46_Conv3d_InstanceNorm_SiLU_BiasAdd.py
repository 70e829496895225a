"""3D convolution (kernel 3, padding 1) on odd-sized volumes, InstanceNorm3d (no affine), SiLU,
then a learned per-channel bias."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16
IN_CHANNELS = 24
OUT_CHANNELS = 48
DEPTH = 24
HEIGHT = 56
WIDTH = 56
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 8, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 9, "DEPTH": 19, "HEIGHT": 45, "WIDTH": 43}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 7, "HEIGHT": 13, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.norm = nn.InstanceNorm3d(out_channels)
        self.bias = nn.Parameter(torch.randn(out_channels, 1, 1, 1) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.silu(self.norm(self.conv(x)))
        return y + self.bias


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
