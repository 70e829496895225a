"""2D transposed convolution, GAN-generator style 4x4 kernel, stride 2, padding 1 (exact 2x upsampling),
2 groups, no bias (NCHW).
"""
import torch
import torch.nn as nn

BATCH = 24
IN_CHANNELS = 512
OUT_CHANNELS = 256
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 4
STRIDE = 2
PADDING = 1
GROUPS = 2
BIAS = False

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 128, "OUT_CHANNELS": 64, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 11, "HEIGHT": 51, "WIDTH": 43}]
cpu_extra_sizes = [{"HEIGHT": 11, "WIDTH": 13}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 groups: int, bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                         padding=padding, groups=groups, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, GROUPS, BIAS]
