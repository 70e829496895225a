"""WaveNet-style gated residual unit: a dilated 1D convolution (kernel 3, dilation 4) produces
twice the channels, split into a filter half (tanh) and a gate half (sigmoid) whose product is
added back to the input."""
import torch
import torch.nn as nn

BATCH = 32
CHANNELS = 256
LENGTH = 4096
KERNEL_SIZE = 3
DILATION = 4

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 160}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "LENGTH": 3067}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 97}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int, dilation: int):
        super().__init__()
        padding = dilation * (kernel_size - 1) // 2
        self.conv = nn.Conv1d(channels, 2 * channels, kernel_size, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        filt, gate = self.conv(x).chunk(2, dim=1)
        return x + torch.tanh(filt) * torch.sigmoid(gate)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE, DILATION]
