"""Grouped 3x3 convolution (8 groups, padding 1, no bias), BatchNorm2d (batch statistics), a
ShuffleNet-style channel shuffle across the groups, then ReLU."""
import torch
import torch.nn as nn

BATCH = 48
CHANNELS = 256
HEIGHT = 96
WIDTH = 96
KERNEL_SIZE = 3
GROUPS = 8

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 32, "WIDTH": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "HEIGHT": 73, "WIDTH": 71}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 23, "WIDTH": 21}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int, groups: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=groups, bias=False)
        self.bn = nn.BatchNorm2d(channels)
        self.groups = groups

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.bn(self.conv(x))
        n, c, h, w = y.shape
        y = y.view(n, self.groups, c // self.groups, h, w).transpose(1, 2).reshape(n, c, h, w)
        return torch.relu(y)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE, GROUPS]
