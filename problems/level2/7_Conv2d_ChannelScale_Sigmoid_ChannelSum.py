"""3x3 convolution (padding 1), multiplication by a learned per-channel scale, sigmoid, then a sum
over the channel dimension (one map per image)."""
import torch
import torch.nn as nn

BATCH = 64
IN_CHANNELS = 96
OUT_CHANNELS = 96
HEIGHT = 112
WIDTH = 112
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 32, "WIDTH": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "HEIGHT": 83, "WIDTH": 85}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 23, "WIDTH": 21}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.scale = nn.Parameter(1.0 + 0.25 * torch.randn(out_channels, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x) * self.scale
        y = torch.sigmoid(y)
        return y.sum(dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
