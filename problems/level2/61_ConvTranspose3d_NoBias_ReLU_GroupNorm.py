"""3D transposed convolution without bias (stride 1, no padding: grows each spatial dim by 2), ReLU,
then GroupNorm with 4 groups."""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 64
OUT_CHANNELS = 64
DEPTH = 12
HEIGHT = 40
WIDTH = 40
KERNEL_SIZE = 3
GROUPS = 4

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "DEPTH": 9, "HEIGHT": 37, "WIDTH": 41}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 3, "HEIGHT": 7, "WIDTH": 9}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, groups: int):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, bias=False)
        self.norm = nn.GroupNorm(groups, out_channels)
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(out_channels) * 0.1)
            self.norm.bias.add_(torch.randn(out_channels) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = torch.relu(y)
        return self.norm(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, GROUPS]
