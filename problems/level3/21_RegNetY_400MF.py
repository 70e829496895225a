"""RegNetY-400MF-style network: 3x3 stride-2 stem conv (32 channels), four stages of 1, 3, 6 and 6
Y-blocks (widths 48, 104, 208, 440), global average pool and a 1000-way classifier. A Y-block is
1x1 conv -> BN -> ReLU -> 3x3 grouped conv (group width 8, stride 2 in a stage's first block) ->
BN -> ReLU -> squeeze-and-excitation (1/4 of the block's input width) -> 1x1 conv -> BN, added to
the (projected where needed) input and passed through ReLU. BatchNorm uses batch statistics
(training mode).
"""
import torch
import torch.nn as nn

# Sized so the GPU sets the time: at a batch of 128 the H200 spent 9.2 ms of host time queueing against 9.7 ms of GPU work
# (lint rule `host-bound`; docs/benchmarks.md, session 25).
BATCH = 256
IN_CHANNELS = 3
IMAGE_SIZE = 224
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 53, "IMAGE_SIZE": 199}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 49}]

STAGE_DEPTHS = [1, 3, 6, 6]
STAGE_WIDTHS = [48, 104, 208, 440]
GROUP_WIDTH = 8
SE_RATIO = 0.25
STEM_CHANNELS = 32


def conv_bn(in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, groups: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=kernel_size // 2,
                  groups=groups, bias=False),
        nn.BatchNorm2d(out_channels),
    )


class YBlock(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, stride: int):
        super().__init__()
        se_channels = int(round(in_channels * SE_RATIO))
        self.a = conv_bn(in_channels, out_channels, 1)
        self.b = conv_bn(out_channels, out_channels, 3, stride=stride, groups=out_channels // GROUP_WIDTH)
        self.se_reduce = nn.Conv2d(out_channels, se_channels, 1)
        self.se_expand = nn.Conv2d(se_channels, out_channels, 1)
        self.c = conv_bn(out_channels, out_channels, 1)
        self.shortcut = None
        if stride != 1 or in_channels != out_channels:
            self.shortcut = conv_bn(in_channels, out_channels, 1, stride=stride)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.a(x))
        y = torch.relu(self.b(y))
        s = torch.mean(y, dim=(2, 3), keepdim=True)
        y = y * torch.sigmoid(self.se_expand(torch.relu(self.se_reduce(s))))
        y = self.c(y)
        skip = x if self.shortcut is None else self.shortcut(x)
        return torch.relu(y + skip)


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int):
        super().__init__()
        self.stem = nn.Sequential(conv_bn(in_channels, STEM_CHANNELS, 3, stride=2), nn.ReLU(inplace=True))
        blocks = []
        prev = STEM_CHANNELS
        for depth, width in zip(STAGE_DEPTHS, STAGE_WIDTHS):
            for i in range(depth):
                blocks.append(YBlock(prev, width, 2 if i == 0 else 1))
                prev = width
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(prev, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks(self.stem(x))
        return self.fc(torch.mean(x, dim=(2, 3)))


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES]
