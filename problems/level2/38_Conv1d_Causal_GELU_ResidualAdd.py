"""Causal 1D convolution (kernel 4, the sequence padded on the left only, so position t sees
t-3..t), GELU, then a residual add of the input."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
CHANNELS = 256
LENGTH = 6000
KERNEL_SIZE = 4

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 300}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "LENGTH": 4501}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 181}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size)
        self.left_pad = kernel_size - 1

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(F.pad(x, (self.left_pad, 0)))
        return x + F.gelu(y)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE]
