"""Depthwise 1D convolution (groups = channels) with a wide 31-tap kernel, padding 15 (length
preserved), with bias (NCL), as in a Conformer convolution module.
"""
import torch
import torch.nn as nn

BATCH = 64
CHANNELS = 1024
LENGTH = 8192
KERNEL_SIZE = 31
PADDING = 15
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "CHANNELS": 256, "LENGTH": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "LENGTH": 6007}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 517}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int, padding: int, bias: bool):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size, padding=padding, groups=channels, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE, PADDING, BIAS]
