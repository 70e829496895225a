"""1D max pooling over a long sequence (N, C, L) with kernel 4, stride 2, padding 1, dilation 2."""
import torch
import torch.nn as nn

BATCH = 64
CHANNELS = 192
LENGTH = 65536
KERNEL_SIZE = 4
STRIDE = 2
PADDING = 1
DILATION = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8, "LENGTH": 2048}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "CHANNELS": 191, "LENGTH": 50001}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 37, "LENGTH": 1001}]


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int, dilation: int):
        super().__init__()
        self.pool = nn.MaxPool1d(kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [KERNEL_SIZE, STRIDE, PADDING, DILATION]
