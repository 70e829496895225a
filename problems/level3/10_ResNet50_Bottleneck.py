"""ResNet-50: 7x7 stem conv + max-pool, then bottleneck blocks (1x1 reduce -> 3x3 -> 1x1 expand by
4, stride on the 3x3 conv) in four stages of 3, 4, 6 and 3 blocks (widths 64, 128, 256, 512;
outputs 256 .. 2048 channels) with 1x1 projection shortcuts where the shape changes, global
average pool and a 1000-way classifier. BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn

# Sized so the GPU sets the time: at a batch of 32 the H200 spent 6.5 ms of host time queueing against 6.0 ms of GPU work
# (lint rule `host-bound`; docs/benchmarks.md, session 25).
BATCH = 96
IN_CHANNELS = 3
IMAGE_SIZE = 224
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 40}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "IMAGE_SIZE": 199}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 33}]

EXPANSION = 4


class Bottleneck(nn.Module):
    def __init__(self, in_channels: int, width: int, stride: int):
        super().__init__()
        out_channels = width * EXPANSION
        self.conv1 = nn.Conv2d(in_channels, width, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.conv2 = nn.Conv2d(width, width, 3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(width)
        self.conv3 = nn.Conv2d(width, out_channels, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(out_channels)
        self.shortcut = None
        if stride != 1 or in_channels != out_channels:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, 1, stride=stride, bias=False),
                nn.BatchNorm2d(out_channels),
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = torch.relu(self.bn2(self.conv2(y)))
        y = self.bn3(self.conv3(y))
        skip = x if self.shortcut is None else self.shortcut(x)
        return torch.relu(y + skip)


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(in_channels, 64, kernel_size=7, stride=2, padding=3, bias=False),
            nn.BatchNorm2d(64),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
        )
        blocks = []
        prev = 64
        for i, (depth, width) in enumerate(zip([3, 4, 6, 3], [64, 128, 256, 512])):
            for j in range(depth):
                stride = 2 if (i > 0 and j == 0) else 1
                blocks.append(Bottleneck(prev, width, stride))
                prev = width * EXPANSION
        self.blocks = nn.Sequential(*blocks)
        self.fc = nn.Linear(prev, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks(self.stem(x))
        x = torch.flatten(torch.mean(x, dim=(2, 3)), 1)
        return self.fc(x)


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES]
