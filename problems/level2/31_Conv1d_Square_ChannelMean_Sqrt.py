"""1D convolution (kernel 5, padding 2), then the root mean square over channels at every position:
square, mean over the channel dimension (kept), add a small epsilon, square root."""
import torch
import torch.nn as nn

BATCH = 128
IN_CHANNELS = 128
OUT_CHANNELS = 256
LENGTH = 4096
KERNEL_SIZE = 5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "LENGTH": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 71, "LENGTH": 3067}]
cpu_extra_sizes = [{"BATCH": 3, "LENGTH": 311}]

EPS = 1e-6


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, eps: float):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        self.eps = eps

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        return torch.sqrt(torch.mean(y * y, dim=1, keepdim=True) + self.eps)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, LENGTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, EPS]
