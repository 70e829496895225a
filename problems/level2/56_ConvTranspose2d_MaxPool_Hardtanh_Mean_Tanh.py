"""2D transposed convolution (kernel 4, stride 2), 2x2 max pooling, Hardtanh to [-0.5, 0.5], mean over
the spatial dimensions, then tanh: one value per (sample, channel)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 128
IN_CHANNELS = 64
OUT_CHANNELS = 128
HEIGHT = 40
WIDTH = 40
KERNEL_SIZE = 4
POOL = 2
HT_MIN = -0.5
HT_MAX = 0.5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 53, "HEIGHT": 37, "WIDTH": 31}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 9, "WIDTH": 7}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool: int,
                 ht_min: float, ht_max: float):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=2, padding=1)
        self.pool = nn.MaxPool2d(pool)
        self.ht_min = ht_min
        self.ht_max = ht_max

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = self.pool(y)
        y = F.hardtanh(y, self.ht_min, self.ht_max)
        y = y.mean(dim=(2, 3), keepdim=True)
        return torch.tanh(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, POOL, HT_MIN, HT_MAX]
