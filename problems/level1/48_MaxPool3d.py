"""3D max pooling of a video/volume tensor (N, C, D, H, W) with overlapping 3x3x3 windows,
stride 2, padding 1."""
import torch
import torch.nn as nn

BATCH = 16
CHANNELS = 48
DEPTH = 64
HEIGHT = 128
WIDTH = 128
KERNEL_SIZE = 3
STRIDE = 2
PADDING = 1

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "CHANNELS": 16, "DEPTH": 16, "HEIGHT": 48, "WIDTH": 48}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "CHANNELS": 47, "DEPTH": 61, "HEIGHT": 125, "WIDTH": 127}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 7, "DEPTH": 13, "HEIGHT": 37, "WIDTH": 45}]


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.MaxPool3d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [KERNEL_SIZE, STRIDE, PADDING]
