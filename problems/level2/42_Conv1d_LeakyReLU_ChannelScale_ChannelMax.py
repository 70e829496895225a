"""1D convolution (kernel 5, padding 2) on odd sizes, LeakyReLU, a learned per-channel scale, then
the maximum over channels at every position."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
IN_CHANNELS = 144
OUT_CHANNELS = 288
LENGTH = 3000
KERNEL_SIZE = 5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 300}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "LENGTH": 2251}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 181}]

NEGATIVE_SLOPE = 0.05


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, negative_slope: float):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.scale = nn.Parameter(1.0 + 0.2 * torch.randn(out_channels, 1))
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.leaky_relu(self.conv(x), self.negative_slope) * self.scale
        return torch.amax(y, dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, NEGATIVE_SLOPE]
