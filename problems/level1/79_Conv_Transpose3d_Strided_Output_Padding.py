"""3D transposed convolution that upsamples a volume 2x per axis: 3x3x3 kernel, stride 2, padding 1,
output_padding 1, with bias (NCDHW). A 40^3 input becomes exactly 80^3.
"""
import torch
import torch.nn as nn

BATCH = 8
IN_CHANNELS = 128
OUT_CHANNELS = 64
DEPTH = 40
HEIGHT = 40
WIDTH = 40
KERNEL_SIZE = 3
STRIDE = 2
PADDING = 1
OUTPUT_PADDING = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 32, "OUT_CHANNELS": 16, "DEPTH": 10, "HEIGHT": 10, "WIDTH": 10}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "DEPTH": 29, "HEIGHT": 31, "WIDTH": 37}]
cpu_extra_sizes = [{"DEPTH": 7, "HEIGHT": 9, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 output_padding: int, bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride,
                                         padding=padding, output_padding=output_padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, OUTPUT_PADDING, BIAS]
