"""Training step of a 3D convolution, 3x3x3 kernel, stride 1, padding 1, with bias (NCDHW), at the
second level of a 3D U-Net on 128^3 volumes (medical segmentation): 2 volumes, 64 -> 64
channels at 64 x 64 x 64. x [2, 64, 64, 64, 64], weight [64, 64, 3, 3, 3], bias [64].
Returns [2, 64, 64, 64, 64].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of the weight and bias.
Why it matters for training: 3D convolutions (volumetric segmentation, video models) have 27
taps per input channel, so the backward's two convolutions carry three times the 2D cost per
voxel, and the weight gradient reduces over every voxel of the batch; with batches of one or
two volumes, its parallelism must come from space rather than the batch.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 2
IN_CHANNELS = 64
OUT_CHANNELS = 64
DEPTH = 64
HEIGHT = 64
WIDTH = 64
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "IN_CHANNELS": 8, "OUT_CHANNELS": 16, "DEPTH": 12, "HEIGHT": 12, "WIDTH": 12}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "DEPTH": 37, "HEIGHT": 45, "WIDTH": 53}]
cpu_extra_sizes = [{"BATCH": 2, "DEPTH": 7, "HEIGHT": 9, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
