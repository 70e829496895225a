"""3D transposed convolution (stride 2), plus a learned scalar, LayerNorm over the channel dimension
(channels-last style, per voxel), 2x2x2 average pooling, then GELU."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16
IN_CHANNELS = 32
OUT_CHANNELS = 64
DEPTH = 16
HEIGHT = 32
WIDTH = 32
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "DEPTH": 13, "HEIGHT": 29, "WIDTH": 31}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 3, "HEIGHT": 7, "WIDTH": 9}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size, stride=2,
                                         padding=1, output_padding=1)
        self.shift = nn.Parameter(torch.tensor(0.5))
        self.norm = nn.LayerNorm(out_channels)
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(out_channels) * 0.1)
            self.norm.bias.add_(torch.randn(out_channels) * 0.1)
        self.pool = nn.AvgPool3d(2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x) + self.shift
        y = self.norm(y.permute(0, 2, 3, 4, 1)).permute(0, 4, 1, 2, 3)
        y = self.pool(y)
        return F.gelu(y)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
