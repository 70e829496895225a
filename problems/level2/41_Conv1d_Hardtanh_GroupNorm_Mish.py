"""1D convolution (kernel 7, padding 3), Hardtanh, GroupNorm (16 groups), then Mish: the
activation comes before the normalisation here."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 80
IN_CHANNELS = 160
OUT_CHANNELS = 320
LENGTH = 2048
KERNEL_SIZE = 7
NUM_GROUPS = 16

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 43, "LENGTH": 1531}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 157}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, num_groups: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.hardtanh(self.conv(x))
        return F.mish(self.norm(y))


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, NUM_GROUPS]
