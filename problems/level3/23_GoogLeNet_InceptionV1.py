"""GoogLeNet (Inception v1) with batch norm: 7x7 stride-2 stem conv, max-pool, 1x1 and 3x3 convs,
max-pool, nine inception modules (3a-3b, 4a-4e, 5a-5b; each concatenates a 1x1 branch, a 1x1 -> 3x3
branch, a 1x1 -> 5x5 branch and a max-pool -> 1x1 branch) with max-pools between groups, global
average pool and a 1000-way classifier. No auxiliary classifiers, no dropout. Every conv is
Conv -> BN -> ReLU; BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# Sized so the GPU sets the time: at a batch of 64 the H200 spent 7.5 ms of host time queueing against 6.4 ms of GPU work
# (lint rule `host-bound`; docs/benchmarks.md, session 25).
BATCH = 192
IN_CHANNELS = 3
IMAGE_SIZE = 224
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "IMAGE_SIZE": 199}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 49}]

# Per module: (1x1, 3x3 reduce, 3x3, 5x5 reduce, 5x5, pool projection); "M" is a 3x3 stride-2 max-pool.
INCEPTION = [
    (64, 96, 128, 16, 32, 32), (128, 128, 192, 32, 96, 64), "M",
    (192, 96, 208, 16, 48, 64), (160, 112, 224, 24, 64, 64), (128, 128, 256, 24, 64, 64),
    (112, 144, 288, 32, 64, 64), (256, 160, 320, 32, 128, 128), "M",
    (256, 160, 320, 32, 128, 128), (384, 192, 384, 48, 128, 128),
]


class ConvBNReLU(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int = 1):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=kernel_size // 2,
                              bias=False)
        self.bn = nn.BatchNorm2d(out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(self.bn(self.conv(x)))


class Inception(nn.Module):
    def __init__(self, in_channels: int, c1: int, r3: int, c3: int, r5: int, c5: int, pool_proj: int):
        super().__init__()
        self.b1 = ConvBNReLU(in_channels, c1, 1)
        self.b2 = nn.Sequential(ConvBNReLU(in_channels, r3, 1), ConvBNReLU(r3, c3, 3))
        self.b3 = nn.Sequential(ConvBNReLU(in_channels, r5, 1), ConvBNReLU(r5, c5, 5))
        self.b4 = ConvBNReLU(in_channels, pool_proj, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pooled = F.max_pool2d(x, kernel_size=3, stride=1, padding=1)
        return torch.cat([self.b1(x), self.b2(x), self.b3(x), self.b4(pooled)], dim=1)


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int):
        super().__init__()
        self.stem = nn.Sequential(
            ConvBNReLU(in_channels, 64, 7, stride=2),
            nn.MaxPool2d(3, stride=2, ceil_mode=True),
            ConvBNReLU(64, 64, 1),
            ConvBNReLU(64, 192, 3),
            nn.MaxPool2d(3, stride=2, ceil_mode=True),
        )
        layers = []
        prev = 192
        for item in INCEPTION:
            if item == "M":
                layers.append(nn.MaxPool2d(3, stride=2, ceil_mode=True))
            else:
                layers.append(Inception(prev, *item))
                c1, _, c3, _, c5, pool_proj = item
                prev = c1 + c3 + c5 + pool_proj
        self.inception = nn.Sequential(*layers)
        self.fc = nn.Linear(prev, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.inception(self.stem(x))
        return self.fc(torch.mean(x, dim=(2, 3)))


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES]
