"""3x3 convolution, GroupNorm, then tanh and HardSwish; the activated map is added back to the
normalised conv output (residual)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 48
IN_CHANNELS = 48
OUT_CHANNELS = 96
HEIGHT = 128
WIDTH = 128
KERNEL_SIZE = 3
NUM_GROUPS = 8

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 32, "WIDTH": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "HEIGHT": 97, "WIDTH": 93}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 23, "WIDTH": 21}]

EPS = 1e-5


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, num_groups: int, eps: float):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.norm = nn.GroupNorm(num_groups, out_channels, eps=eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.norm(self.conv(x))
        z = F.hardswish(torch.tanh(y))
        return y + z


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, NUM_GROUPS, EPS]
