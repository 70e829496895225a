"""1D transposed convolution with stride 3 and dilation 2 (kernel 5, padding 2), no bias (NCL).

Output length is (L - 1) * 3 - 2 * 2 + 2 * (5 - 1) + 1, about 3x the input; with stride 3 and
dilation 2 the five taps land on all three output phases, so every output position gets work.
"""
import torch
import torch.nn as nn

BATCH = 32
IN_CHANNELS = 128
OUT_CHANNELS = 64
LENGTH = 65536
KERNEL_SIZE = 5
STRIDE = 3
PADDING = 2
DILATION = 2
BIAS = False

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "IN_CHANNELS": 32, "OUT_CHANNELS": 16, "LENGTH": 4096}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "LENGTH": 50001}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 1999}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 dilation: int, bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride,
                                         padding=padding, dilation=dilation, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, DILATION, BIAS]
