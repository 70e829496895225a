"""2D transposed convolution, square 3x3 kernel on a square input, stride 1, padding 1, with bias (NCHW)."""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 96
OUT_CHANNELS = 96
HEIGHT = 256
WIDTH = 256
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 32, "OUT_CHANNELS": 32, "HEIGHT": 64, "WIDTH": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "HEIGHT": 199, "WIDTH": 199}]
cpu_extra_sizes = [{"HEIGHT": 37, "WIDTH": 37}]


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
