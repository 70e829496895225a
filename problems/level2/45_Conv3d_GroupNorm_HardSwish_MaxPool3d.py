"""3D convolution (kernel 3, padding 1), GroupNorm (8 groups), HardSwish, then 2x2x2 max
pooling."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
IN_CHANNELS = 32
OUT_CHANNELS = 64
DEPTH = 32
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 3
NUM_GROUPS = 8
POOL = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 8, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "DEPTH": 27, "HEIGHT": 51, "WIDTH": 49}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 7, "HEIGHT": 13, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, num_groups: int, pool: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.norm = nn.GroupNorm(num_groups, out_channels)
        self.pool = nn.MaxPool3d(pool)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.hardswish(self.norm(self.conv(x)))
        return self.pool(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, NUM_GROUPS, POOL]
