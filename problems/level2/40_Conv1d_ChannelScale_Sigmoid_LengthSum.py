"""1D convolution (kernel 3, padding 1) over many short sequences, a learned per-channel scale,
sigmoid, then a sum over the length (one value per sequence and channel)."""
import torch
import torch.nn as nn

BATCH = 4096
IN_CHANNELS = 256
OUT_CHANNELS = 256
LENGTH = 64
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 2047, "LENGTH": 47}]
cpu_extra_sizes = [{"BATCH": 11, "LENGTH": 47}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.scale = nn.Parameter(2.0 + 0.5 * torch.randn(out_channels, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.sigmoid(self.conv(x) * self.scale)
        return y.sum(dim=-1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
