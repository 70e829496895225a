"""Pointwise (kernel 1) 1D convolution mixing channels, LayerNorm over the channels at every
position, ReLU, then a residual add of the block's input."""
import torch
import torch.nn as nn

BATCH = 32
CHANNELS = 512
LENGTH = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "LENGTH": 3067}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 157}]


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, 1)
        self.norm = nn.LayerNorm(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.norm(self.conv(x).transpose(1, 2)).transpose(1, 2)
        return x + torch.relu(y)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [CHANNELS]
