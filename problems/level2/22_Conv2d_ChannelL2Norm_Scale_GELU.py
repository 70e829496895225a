"""3x3 convolution (padding 1), L2 normalisation of the channel vector at every pixel, a learned
per-channel scale (SSD-style, initialised to a constant), then GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
IN_CHANNELS = 128
OUT_CHANNELS = 128
HEIGHT = 120
WIDTH = 120
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 30, "WIDTH": 30}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "HEIGHT": 91, "WIDTH": 89}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 21, "WIDTH": 23}]

SCALE_INIT = 10.0


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, scale_init: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.scale = nn.Parameter(scale_init + torch.randn(out_channels, 1, 1) * 0.02 * scale_init)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.normalize(self.conv(x), p=2.0, dim=1, eps=1e-12)
        return F.gelu(y * self.scale)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, SCALE_INIT]
