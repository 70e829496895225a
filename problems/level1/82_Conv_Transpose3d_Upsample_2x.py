"""3D transposed convolution as used in 3D U-Net decoders: 2x2x2 kernel, stride 2, no padding,
with bias (NCDHW). Each input voxel scatters to its own 2x2x2 output block (no overlap), so
this is a per-voxel matrix product followed by a pixel-shuffle-like store.
"""
import torch
import torch.nn as nn

BATCH = 8
IN_CHANNELS = 256
OUT_CHANNELS = 128
DEPTH = 40
HEIGHT = 40
WIDTH = 40
KERNEL_SIZE = 2
STRIDE = 2
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 64, "OUT_CHANNELS": 32, "DEPTH": 10, "HEIGHT": 10, "WIDTH": 10}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 5, "DEPTH": 29, "HEIGHT": 31, "WIDTH": 37}]
cpu_extra_sizes = [{"DEPTH": 7, "HEIGHT": 9, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=stride, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, BIAS]
