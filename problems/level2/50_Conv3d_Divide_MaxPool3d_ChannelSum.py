"""3D convolution (kernel 3, padding 1), division by a constant, 2x2x2 max pooling, then a sum over
the channels (kept as one channel)."""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 16
OUT_CHANNELS = 48
DEPTH = 32
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 3
POOL = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 8, "HEIGHT": 24, "WIDTH": 24}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 9, "DEPTH": 27, "HEIGHT": 51, "WIDTH": 49}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 7, "HEIGHT": 19, "WIDTH": 17}]

DIVISOR = 3.0


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool: int, divisor: float):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.pool = nn.MaxPool3d(pool)
        self.divisor = divisor

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pool(self.conv(x) / self.divisor)
        return y.sum(dim=1, keepdim=True)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, POOL, DIVISOR]
