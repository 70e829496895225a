"""1D convolution with stride 2 and dilation 4 (kernel 3, padding 4), no bias (NCL): a
downsampling layer over a long signal, halving the length from 131072 to 65536.
"""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 128
OUT_CHANNELS = 256
LENGTH = 131072
KERNEL_SIZE = 3
STRIDE = 2
PADDING = 4
DILATION = 4
BIAS = False

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 32, "OUT_CHANNELS": 64, "LENGTH": 16384}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "LENGTH": 100003}]
cpu_extra_sizes = [{"LENGTH": 4001}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 dilation: int, bias: bool):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                              dilation=dilation, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, DILATION, BIAS]
