"""Depthwise 3D convolution (kernel 3, padding 1, one filter per channel, no bias) on video-like
volumes, BatchNorm3d (batch statistics), then ReLU."""
import torch
import torch.nn as nn

BATCH = 48
CHANNELS = 64
DEPTH = 16
HEIGHT = 56
WIDTH = 56
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 8, "HEIGHT": 28, "WIDTH": 28}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 27, "DEPTH": 13, "HEIGHT": 45, "WIDTH": 43}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 7, "HEIGHT": 21, "WIDTH": 23}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels, bias=False)
        self.bn = nn.BatchNorm3d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.bn(self.conv(x)))


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE]
