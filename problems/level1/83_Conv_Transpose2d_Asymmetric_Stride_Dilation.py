"""2D transposed convolution with per-axis hyper-parameters (NCHW), with bias: kernel 3x5,
stride 1x2, padding 2x2, output_padding 0x1, dilation 2x1. Height is preserved (dilated taps),
width is doubled (strided taps).
"""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 128
OUT_CHANNELS = 96
HEIGHT = 128
WIDTH = 256
KERNEL_H = 3
KERNEL_W = 5
STRIDE_H = 1
STRIDE_W = 2
PADDING_H = 2
PADDING_W = 2
OUTPUT_PADDING_H = 0
OUTPUT_PADDING_W = 1
DILATION_H = 2
DILATION_W = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 32, "OUT_CHANNELS": 24, "HEIGHT": 32, "WIDTH": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "HEIGHT": 97, "WIDTH": 201}]
cpu_extra_sizes = [{"HEIGHT": 19, "WIDTH": 41}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: list, stride: list, padding: list,
                 output_padding: list, dilation: list, bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                         padding=padding, output_padding=output_padding,
                                         dilation=dilation, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, [KERNEL_H, KERNEL_W], [STRIDE_H, STRIDE_W], [PADDING_H, PADDING_W],
            [OUTPUT_PADDING_H, OUTPUT_PADDING_W], [DILATION_H, DILATION_W], BIAS]
