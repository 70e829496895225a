"""1D transposed convolution, kernel 5, stride 1, padding 2 (length preserved), with bias (NCL)."""
import torch
import torch.nn as nn

BATCH = 64
IN_CHANNELS = 256
OUT_CHANNELS = 160
LENGTH = 8192
KERNEL_SIZE = 5
STRIDE = 1
PADDING = 2
BIAS = True

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "IN_CHANNELS": 64, "OUT_CHANNELS": 40, "LENGTH": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "LENGTH": 6007}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 517}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int,
                 bias: bool):
        super().__init__()
        self.deconv = nn.ConvTranspose1d(in_channels, out_channels, kernel_size, stride=stride,
                                         padding=padding, bias=bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING, BIAS]
