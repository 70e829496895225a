"""3D average pooling of a video tensor (N, C, T, H, W) with a 3x3x3 window, stride (1, 2, 2),
padding 1: temporal smoothing at full frame rate plus 2x spatial downsampling."""
import torch
import torch.nn as nn

BATCH = 8
CHANNELS = 64
FRAMES = 64
HEIGHT = 160
WIDTH = 160
KERNEL_T = 3
KERNEL_HW = 3
STRIDE_T = 1
STRIDE_HW = 2
PADDING = 1

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "CHANNELS": 16, "FRAMES": 16, "HEIGHT": 48, "WIDTH": 48}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"FRAMES": 37, "HEIGHT": 123, "WIDTH": 101}]
cpu_extra_sizes = [{"FRAMES": 11, "HEIGHT": 37, "WIDTH": 29}]


class Model(nn.Module):
    def __init__(self, kernel_size: list, stride: list, padding: int):
        super().__init__()
        self.pool = nn.AvgPool3d(tuple(kernel_size), stride=tuple(stride), padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, FRAMES, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return [[KERNEL_T, KERNEL_HW, KERNEL_HW], [STRIDE_T, STRIDE_HW, STRIDE_HW], PADDING]
