"""One ConvNeXt block: 7x7 depthwise conv -> (channels-last) LayerNorm -> Linear to 4x width -> GELU
-> Linear back -> per-channel layer scale, added to the block input. Shapes are those of
ConvNeXt-T's first stage (96 channels, 56x56).

The layer scale is a learned parameter created at 1.0 here: the paper's 1e-6 starting value would
make the block an identity to within the tolerance.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 192
CHANNELS = 96
IMAGE_SIZE = 56
LAYER_SCALE = 1.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 14}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 79, "IMAGE_SIZE": 47}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 11}]


class Model(nn.Module):
    def __init__(self, channels: int, layer_scale: float):
        super().__init__()
        self.dwconv = nn.Conv2d(channels, channels, kernel_size=7, padding=3, groups=channels)
        self.norm = nn.LayerNorm(channels, eps=1e-6)
        self.fc1 = nn.Linear(channels, 4 * channels)
        self.fc2 = nn.Linear(4 * channels, channels)
        self.gamma = nn.Parameter(torch.full((channels,), layer_scale))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.dwconv(x).permute(0, 2, 3, 1)  # N, H, W, C
        y = self.fc2(F.gelu(self.fc1(self.norm(y))))
        y = (self.gamma * y).permute(0, 3, 1, 2)
        return x + y


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    return [x]


def get_init_inputs():
    return [CHANNELS, LAYER_SCALE]
