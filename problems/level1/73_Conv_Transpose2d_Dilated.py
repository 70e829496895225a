"""2D transposed convolution, 3x3 kernel with dilation 2 and padding 2 (size preserved), with bias (NCHW)."""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 96
OUT_CHANNELS = 128
HEIGHT = 224
WIDTH = 224
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 2
DILATION = 2
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 24, "OUT_CHANNELS": 32, "HEIGHT": 56, "WIDTH": 56}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "HEIGHT": 183, "WIDTH": 157}]
cpu_extra_sizes = [{"HEIGHT": 37, "WIDTH": 29}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 dilation: int, bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                         padding=padding, dilation=dilation, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, DILATION, BIAS]
