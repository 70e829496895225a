"""2D transposed convolution, 3x3 kernel, padding 1, on a wide 120x480 input, with bias (NCHW)."""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 128
OUT_CHANNELS = 96
HEIGHT = 120
WIDTH = 480
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 32, "OUT_CHANNELS": 24, "HEIGHT": 30, "WIDTH": 120}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 9, "HEIGHT": 97, "WIDTH": 331}]
cpu_extra_sizes = [{"HEIGHT": 23, "WIDTH": 77}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                         padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, BIAS]
