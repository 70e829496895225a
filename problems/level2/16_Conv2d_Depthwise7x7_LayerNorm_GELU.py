"""ConvNeXt-style: depthwise 7x7 convolution (padding 3), LayerNorm over the channels at every
pixel (channels-last), then GELU; the output is back in NCHW."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 128
CHANNELS = 128
HEIGHT = 112
WIDTH = 112
KERNEL_SIZE = 7

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 40, "WIDTH": 40}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 71, "HEIGHT": 83, "WIDTH": 85}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 29, "WIDTH": 27}]

EPS = 1e-6


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int, eps: float):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)
        self.norm = nn.LayerNorm(channels, eps=eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x).permute(0, 2, 3, 1)
        y = F.gelu(self.norm(y))
        return y.permute(0, 3, 1, 2)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE, EPS]
