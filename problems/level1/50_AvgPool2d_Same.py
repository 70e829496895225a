"""2D average pooling with a 3x3 window, stride 1, padding 1 (output keeps H x W, as in an
Inception pooling branch); zero padding counts in the divisor (count_include_pad=True)."""
import torch
import torch.nn as nn

BATCH = 80
CHANNELS = 160
HEIGHT = 224
WIDTH = 224
KERNEL_SIZE = 3
STRIDE = 1
PADDING = 1

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "CHANNELS": 32, "HEIGHT": 112, "WIDTH": 112}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "CHANNELS": 159, "HEIGHT": 221, "WIDTH": 197}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 13, "HEIGHT": 61, "WIDTH": 77}]


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.pool = nn.AvgPool2d(kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return [KERNEL_SIZE, STRIDE, PADDING]
