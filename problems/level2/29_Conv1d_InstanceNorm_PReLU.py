"""1D convolution (kernel 7, padding 3) on a sequence of odd length, InstanceNorm1d (no affine),
then PReLU with a learned slope per channel."""
import torch
import torch.nn as nn

BATCH = 64
IN_CHANNELS = 192
OUT_CHANNELS = 192
LENGTH = 4000
KERNEL_SIZE = 7

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 400}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "LENGTH": 3001}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 241}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.norm = nn.InstanceNorm1d(out_channels)
        self.act = nn.PReLU(out_channels, init=0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.act(self.norm(self.conv(x)))


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
