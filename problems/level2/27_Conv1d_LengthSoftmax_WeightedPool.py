"""1D convolution (kernel 3, padding 1), softmax over the length for each channel, and the conv
output pooled over the length with those weights (attention-style pooling to one value per
channel)."""
import torch
import torch.nn as nn

BATCH = 64
IN_CHANNELS = 192
OUT_CHANNELS = 256
LENGTH = 4096
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "LENGTH": 3067}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 311}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        w = torch.softmax(y, dim=-1)
        return (w * y).sum(dim=-1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
