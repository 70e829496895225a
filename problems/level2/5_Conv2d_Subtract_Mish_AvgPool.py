"""5x5 convolution (padding 2), subtraction of a learned per-channel offset, Mish, then 2x2
average pooling."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
IN_CHANNELS = 64
OUT_CHANNELS = 64
HEIGHT = 112
WIDTH = 112
KERNEL_SIZE = 5
POOL = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 32, "WIDTH": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "HEIGHT": 83, "WIDTH": 85}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 23, "WIDTH": 21}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.offset = nn.Parameter(torch.randn(out_channels, 1, 1) * 0.5)
        self.pool = nn.AvgPool2d(pool)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x) - self.offset
        y = F.mish(y)
        return self.pool(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, POOL]
