"""3D transposed convolution (stride 2), LeakyReLU, multiplication by a learned per-channel factor,
LeakyReLU again, then 2x2x2 max pooling."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
IN_CHANNELS = 16
OUT_CHANNELS = 32
DEPTH = 16
HEIGHT = 32
WIDTH = 32
KERNEL_SIZE = 3
NEGATIVE_SLOPE = 0.2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "DEPTH": 11, "HEIGHT": 31, "WIDTH": 37}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 3, "HEIGHT": 9, "WIDTH": 7}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, negative_slope: float):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2,
                                         padding=1, output_padding=1)
        self.multiplier = nn.Parameter(torch.randn(out_channels, 1, 1, 1))
        self.negative_slope = negative_slope
        self.pool = nn.MaxPool3d(2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = F.leaky_relu(y, self.negative_slope)
        y = y * self.multiplier
        y = F.leaky_relu(y, self.negative_slope)
        return self.pool(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, NEGATIVE_SLOPE]
