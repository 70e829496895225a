"""3D convolution, cubic 3x3x3 kernel on a cubic 48^3 volume, stride 1, padding 1, with bias (NCDHW)."""
import torch
import torch.nn as nn

BATCH = 8
IN_CHANNELS = 64
OUT_CHANNELS = 64
DEPTH = 48
HEIGHT = 48
WIDTH = 48
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 1
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 16, "OUT_CHANNELS": 16, "DEPTH": 16, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "DEPTH": 37, "HEIGHT": 37, "WIDTH": 37}]
cpu_extra_sizes = [{"DEPTH": 11, "HEIGHT": 11, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 bias: bool):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, stride=stride, padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, BIAS]
