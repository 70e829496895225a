"""Depthwise 3x3 convolution (one filter per channel, padding 1, no bias) followed by BatchNorm2d
(batch statistics) and ReLU6, as in a MobileNet block."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 96
CHANNELS = 192
HEIGHT = 112
WIDTH = 112
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 40, "WIDTH": 40}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 53, "HEIGHT": 83, "WIDTH": 85}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 29, "WIDTH": 27}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels, bias=False)
        self.bn = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.bn(self.conv(x))
        return F.relu6(y)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE]
