"""3D transposed convolution (stride 2), mean over the depth dimension, plus a learned per-channel bias,
softmax over channels of the values times a constant, tanh, then multiplication by the same constant."""
import torch
import torch.nn as nn

BATCH = 32
IN_CHANNELS = 32
OUT_CHANNELS = 64
DEPTH = 8
HEIGHT = 40
WIDTH = 40
KERNEL_SIZE = 3
SCALE = 4.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "DEPTH": 7, "HEIGHT": 37, "WIDTH": 39}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 3, "HEIGHT": 9, "WIDTH": 7}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, scale: float):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2,
                                         padding=1, output_padding=1)
        self.bias = nn.Parameter(torch.randn(1, out_channels, 1, 1, 1) * 0.5)
        self.scale = scale

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = y.mean(dim=2, keepdim=True)
        y = y + self.bias
        y = torch.softmax(y * self.scale, dim=1)
        y = torch.tanh(y)
        return y * self.scale


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, SCALE]
