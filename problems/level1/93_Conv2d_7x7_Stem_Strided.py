"""2D convolution as a CNN stem: 3 -> 64 channels, 7x7 kernel, stride 2, padding 3, no bias (NCHW).
Only 3 input channels, so the reduction per output is short (147 terms) and the output write dominates.
"""
import torch
import torch.nn as nn

BATCH = 512
IN_CHANNELS = 3
OUT_CHANNELS = 64
HEIGHT = 256
WIDTH = 256
KERNEL_SIZE = 7
STRIDE = 2
PADDING = 3
BIAS = False

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8, "HEIGHT": 128, "WIDTH": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 199, "HEIGHT": 223, "WIDTH": 251}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 97, "WIDTH": 83}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 bias: bool):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, BIAS]
