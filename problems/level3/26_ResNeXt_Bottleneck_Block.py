"""One ResNeXt bottleneck block (32x4d): 1x1 conv to 128 channels -> BN -> ReLU -> 3x3 grouped conv
(32 groups of 4 channels) -> BN -> ReLU -> 1x1 conv back to 256 channels -> BN, added to the
identity shortcut and passed through ReLU. Shapes are those of ResNeXt-50's first stage (56x56).
BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn

BATCH = 192
CHANNELS = 256
CARDINALITY = 32
GROUP_WIDTH = 4
IMAGE_SIZE = 56

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 14}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 79, "IMAGE_SIZE": 47}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 11}]


class Model(nn.Module):
    def __init__(self, channels: int, cardinality: int, group_width: int):
        super().__init__()
        width = cardinality * group_width
        self.conv1 = nn.Conv2d(channels, width, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, kernel_size=3, padding=1, groups=cardinality, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, channels, kernel_size=1, bias=False)
        self.bn3 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = torch.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        return torch.relu(x + y)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    return [x]


def get_init_inputs():
    return [CHANNELS, CARDINALITY, GROUP_WIDTH]
