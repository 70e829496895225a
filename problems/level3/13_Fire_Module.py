"""SqueezeNet fire module: a 1x1 "squeeze" convolution + ReLU feeding two parallel "expand"
convolutions (1x1 and 3x3, each + ReLU) whose outputs are concatenated along channels. Shapes
are those of SqueezeNet 1.0's fire4 module on its 55x55 feature map.
"""
import torch
import torch.nn as nn

BATCH = 384
IN_CHANNELS = 128
SQUEEZE_CHANNELS = 32
EXPAND1X1_CHANNELS = 128
EXPAND3X3_CHANNELS = 128
IMAGE_SIZE = 55

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 23}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 163, "IMAGE_SIZE": 47}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 17}]


class Model(nn.Module):
    def __init__(self, in_channels: int, squeeze_channels: int, expand1x1_channels: int, expand3x3_channels: int):
        super().__init__()
        self.squeeze = nn.Conv2d(in_channels, squeeze_channels, kernel_size=1)
        self.expand1x1 = nn.Conv2d(squeeze_channels, expand1x1_channels, kernel_size=1)
        self.expand3x3 = nn.Conv2d(squeeze_channels, expand3x3_channels, kernel_size=3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        s = torch.relu(self.squeeze(x))
        return torch.cat([torch.relu(self.expand1x1(s)), torch.relu(self.expand3x3(s))], dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, SQUEEZE_CHANNELS, EXPAND1X1_CHANNELS, EXPAND3X3_CHANNELS]
