"""One ShuffleNet (v1) unit with stride 1: grouped 1x1 conv to a quarter of the channels -> BN ->
ReLU -> channel shuffle -> 3x3 depthwise conv -> BN -> grouped 1x1 conv back to the full width ->
BN, added to the input and passed through ReLU. Shapes are those of ShuffleNet 1x (g=3)'s second
stage (240 channels, 28x28). BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn

BATCH = 1024
CHANNELS = 240
GROUPS = 3
IMAGE_SIZE = 28

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 14}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 401, "IMAGE_SIZE": 25}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 11}]


def channel_shuffle(x: torch.Tensor, groups: int) -> torch.Tensor:
    b, c, h, w = x.shape
    return x.view(b, groups, c // groups, h, w).transpose(1, 2).reshape(b, c, h, w)


class Model(nn.Module):
    def __init__(self, channels: int, groups: int):
        super().__init__()
        mid = channels // 4
        self.groups = groups
        self.gconv1 = nn.Conv2d(channels, mid, kernel_size=1, groups=groups, bias=False)
        self.bn1 = nn.BatchNorm2d(mid)
        self.depthwise = nn.Conv2d(mid, mid, kernel_size=3, padding=1, groups=mid, bias=False)
        self.bn2 = nn.BatchNorm2d(mid)
        self.gconv2 = nn.Conv2d(mid, channels, kernel_size=1, groups=groups, bias=False)
        self.bn3 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.gconv1(x)))
        y = channel_shuffle(y, self.groups)
        y = self.bn2(self.depthwise(y))
        y = self.bn3(self.gconv2(y))
        return torch.relu(x + y)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    return [x]


def get_init_inputs():
    return [CHANNELS, GROUPS]
