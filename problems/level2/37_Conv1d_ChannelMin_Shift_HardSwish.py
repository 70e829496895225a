"""1D convolution (kernel 5, padding 2), minimum over the channels at every position (kept as one
channel), a constant shift, then HardSwish."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 384
IN_CHANNELS = 128
OUT_CHANNELS = 192
LENGTH = 2048
KERNEL_SIZE = 5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 211, "LENGTH": 1531}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 157}]

SHIFT = 1.5


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, shift: float):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.shift = shift

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.amin(self.conv(x), dim=1, keepdim=True)
        return F.hardswish(y + self.shift)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, SHIFT]
