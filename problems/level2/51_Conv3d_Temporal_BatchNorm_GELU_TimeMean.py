"""Temporal-only 3D convolution on video features (kernel 3x1x1, padding 1 in time, as in a
(2+1)D block), BatchNorm3d (batch statistics), GELU, then the mean over the time axis."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
IN_CHANNELS = 128
OUT_CHANNELS = 128
FRAMES = 16
HEIGHT = 40
WIDTH = 40
TIME_KERNEL = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "FRAMES": 8, "HEIGHT": 12, "WIDTH": 12}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 17, "FRAMES": 13, "HEIGHT": 37, "WIDTH": 31}]
cpu_extra_sizes = [{"BATCH": 3, "FRAMES": 5, "HEIGHT": 11, "WIDTH": 9}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, time_kernel: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, (time_kernel, 1, 1), padding=(time_kernel // 2, 0, 0),
                              bias=False)
        self.bn = nn.BatchNorm3d(out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.gelu(self.bn(self.conv(x)))
        return y.mean(dim=2)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, FRAMES, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, TIME_KERNEL]
