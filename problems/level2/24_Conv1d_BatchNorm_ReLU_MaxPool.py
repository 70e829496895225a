"""1D convolution (kernel 3, padding 1, no bias), BatchNorm1d (batch statistics), ReLU, then max
pooling over the length with window 2."""
import torch
import torch.nn as nn

BATCH = 128
IN_CHANNELS = 128
OUT_CHANNELS = 256
LENGTH = 4096
KERNEL_SIZE = 3
POOL = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 71, "LENGTH": 3067}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 157}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, pool: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2, bias=False)
        self.bn = nn.BatchNorm1d(out_channels)
        self.pool = nn.MaxPool1d(pool)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn(self.conv(x)))
        return self.pool(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, POOL]
