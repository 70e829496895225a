"""2D convolution with an asymmetric 3x7 kernel, padding 1x3 (size preserved), with bias (NCHW)."""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 128
OUT_CHANNELS = 128
HEIGHT = 160
WIDTH = 160
KERNEL_H = 3
KERNEL_W = 7
PADDING_H = 1
PADDING_W = 3
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 32, "OUT_CHANNELS": 32, "HEIGHT": 48, "WIDTH": 48}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "HEIGHT": 127, "WIDTH": 149}]
cpu_extra_sizes = [{"HEIGHT": 29, "WIDTH": 37}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: list, padding: list, bias: bool):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, [KERNEL_H, KERNEL_W], [PADDING_H, PADDING_W], BIAS]
