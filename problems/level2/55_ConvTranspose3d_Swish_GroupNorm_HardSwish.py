"""3D transposed convolution (stride 2), Swish (x * sigmoid(x)), GroupNorm with 8 groups, then
HardSwish."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16
IN_CHANNELS = 32
OUT_CHANNELS = 64
DEPTH = 12
HEIGHT = 32
WIDTH = 32
KERNEL_SIZE = 3
GROUPS = 8
EPS = 1e-5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "DEPTH": 9, "HEIGHT": 29, "WIDTH": 31}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 3, "HEIGHT": 7, "WIDTH": 9}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, groups: int, eps: float):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2,
                                         padding=1, output_padding=1)
        self.norm = nn.GroupNorm(groups, out_channels, eps=eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = y * torch.sigmoid(y)
        y = self.norm(y)
        return F.hardswish(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, GROUPS, EPS]
