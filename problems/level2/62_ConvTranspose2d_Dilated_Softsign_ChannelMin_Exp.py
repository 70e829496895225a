"""Dilated 2D transposed convolution (kernel 3, dilation 3, stride 2: exact 2x upsampling), Softsign
(x / (1 + |x|)), minimum over the channel dimension, then exp."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
IN_CHANNELS = 64
OUT_CHANNELS = 128
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 3
DILATION = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "HEIGHT": 57, "WIDTH": 51}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 11, "WIDTH": 13}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, dilation: int):
        super().__init__()
        # An odd dilation with stride 2 reaches both output parities; this padding gives exactly 2x.
        pad = dilation * (kernel_size - 1) // 2
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=2, padding=pad,
                                         output_padding=1, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = F.softsign(y)
        y = torch.amin(y, dim=1, keepdim=True)
        return torch.exp(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, DILATION]
