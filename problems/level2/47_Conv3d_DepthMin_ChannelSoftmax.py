"""3D convolution (kernel 3, no padding), minimum over the depth dimension (collapsing it), then
softmax over the channels of the resulting 2D maps."""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 32
OUT_CHANNELS = 64
DEPTH = 18
HEIGHT = 66
WIDTH = 66
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 8, "HEIGHT": 18, "WIDTH": 18}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 9, "DEPTH": 15, "HEIGHT": 53, "WIDTH": 51}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 7, "HEIGHT": 15, "WIDTH": 13}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.amin(self.conv(x), dim=2)
        return torch.softmax(y, dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
