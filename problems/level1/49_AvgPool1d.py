"""1D average pooling (N, C, L) with kernel 5, stride 2, padding 2; padded positions are left out
of the divisor (count_include_pad=False), so edge windows average fewer elements."""
import torch
import torch.nn as nn

BATCH = 32
CHANNELS = 256
LENGTH = 100000
KERNEL_SIZE = 5
STRIDE = 2
PADDING = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "LENGTH": 3000}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "CHANNELS": 255, "LENGTH": 77777}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 37, "LENGTH": 2001}]


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.AvgPool1d(kernel_size, stride=stride, padding=padding, count_include_pad=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, LENGTH) * 2.0
    return [x]


def get_init_inputs():
    return [KERNEL_SIZE, STRIDE, PADDING]
