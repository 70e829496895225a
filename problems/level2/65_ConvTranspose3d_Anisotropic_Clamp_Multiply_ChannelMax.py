"""3D transposed convolution with an anisotropic kernel (1x2x2 stride: depth kept, height and width
doubled), clamp to [-0.4, 0.4], multiplication by a learned per-channel factor, then maximum over the
channel dimension."""
import torch
import torch.nn as nn

BATCH = 16
IN_CHANNELS = 32
OUT_CHANNELS = 32
DEPTH = 16
HEIGHT = 48
WIDTH = 48
CLAMP = 0.4

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "DEPTH": 4, "HEIGHT": 8, "WIDTH": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "DEPTH": 13, "HEIGHT": 45, "WIDTH": 43}]
cpu_extra_sizes = [{"BATCH": 3, "DEPTH": 3, "HEIGHT": 7, "WIDTH": 9}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, clamp: float):
        super().__init__()
        self.deconv = nn.ConvTranspose3d(in_channels, out_channels, kernel_size=(3, 4, 4),
                                         stride=(1, 2, 2), padding=(1, 1, 1))
        self.multiplier = nn.Parameter(torch.randn(out_channels, 1, 1, 1))
        self.clamp = clamp

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.deconv(x)
        y = torch.clamp(y, -self.clamp, self.clamp)
        y = y * self.multiplier
        return torch.amax(y, dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, DEPTH, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, CLAMP]
