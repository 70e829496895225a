"""3D transposed convolution (stride 2) producing 2C channels, a gated linear unit over the channel
dimension (first half * sigmoid(second half)), Hardtanh to [-0.5, 0.5], then multiplication by a
learned per-channel scale."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 24
IN_CHANNELS = 32
OUT_CHANNELS = 32
DEPTH = 12
HEIGHT = 32
WIDTH = 32
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 11, "DEPTH": 9, "HEIGHT": 29, "WIDTH": 31}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 3, "HEIGHT": 9, "WIDTH": 7}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, 2 * out_channels, kernel_size, stride=2,
                                         padding=1, output_padding=1)
        self.scale = nn.Parameter(1.0 + 0.5 * torch.randn(out_channels, 1, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = F.glu(y, dim=1)
        y = F.hardtanh(y, -0.5, 0.5)
        return y * self.scale


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
