"""2D max pooling with a 2x2 window and stride 2 (NCHW)."""
import torch
import torch.nn as nn

BATCH = 128
CHANNELS = 96
HEIGHT = 256
WIDTH = 256
KERNEL_SIZE = 2
STRIDE = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 16, "CHANNELS": 64, "HEIGHT": 128, "WIDTH": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 61, "CHANNELS": 95, "HEIGHT": 203, "WIDTH": 171}]
cpu_extra_sizes = [{"BATCH": 5, "CHANNELS": 37, "HEIGHT": 61, "WIDTH": 77}]


class Model(nn.Module):
    def __init__(self, kernel_size: int, stride: int):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [KERNEL_SIZE, STRIDE]
