"""Pointwise (1x1) convolution expanding the channels (no bias), BatchNorm2d (batch statistics),
then HardSwish, as in a MobileNetV3 expansion layer."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 128
IN_CHANNELS = 192
OUT_CHANNELS = 384
HEIGHT = 56
WIDTH = 56

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 28, "WIDTH": 28}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 71, "HEIGHT": 43, "WIDTH": 41}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 19, "WIDTH": 21}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 1, bias=False)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.bn(self.conv(x))
        return F.hardswish(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS]
