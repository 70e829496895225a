"""One EfficientNet MBConv block with squeeze-and-excitation: 1x1 expansion conv (x6) -> BN -> SiLU
-> 5x5 depthwise conv -> BN -> SiLU -> SE (global average pool -> 1x1 conv reduce -> SiLU -> 1x1 conv
expand -> sigmoid -> channel-wise scale) -> 1x1 projection conv -> BN, plus the identity shortcut.
Shapes are those of EfficientNet-B0's 40-channel stage. BatchNorm uses batch statistics (training
mode).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 768
CHANNELS = 40
EXPAND_RATIO = 6
KERNEL_SIZE = 5
SE_CHANNELS = 10
IMAGE_SIZE = 28

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 14}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 331, "IMAGE_SIZE": 25}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 11}]


class Model(nn.Module):
    def __init__(self, channels: int, expand_ratio: int, kernel_size: int, se_channels: int):
        super().__init__()
        hidden = channels * expand_ratio
        self.expand = nn.Conv2d(channels, hidden, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(hidden)
        self.depthwise = nn.Conv2d(hidden, hidden, kernel_size, padding=kernel_size // 2, groups=hidden, bias=False)
        self.bn2 = nn.BatchNorm2d(hidden)
        self.se_reduce = nn.Conv2d(hidden, se_channels, 1)
        self.se_expand = nn.Conv2d(se_channels, hidden, 1)
        self.project = nn.Conv2d(hidden, channels, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.silu(self.bn1(self.expand(x)))
        y = F.silu(self.bn2(self.depthwise(y)))
        s = torch.mean(y, dim=(2, 3), keepdim=True)
        s = torch.sigmoid(self.se_expand(F.silu(self.se_reduce(s))))
        y = self.bn3(self.project(y * s))
        return x + y


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    return [x]


def get_init_inputs():
    return [CHANNELS, EXPAND_RATIO, KERNEL_SIZE, SE_CHANNELS]
