"""DenseNet-121: 7x7 stem conv + max-pool, four dense blocks of 6, 12, 24 and 16 layers (growth
rate 32, bottleneck 1x1 conv to 128 channels then 3x3 conv to 32, features concatenated), with
transition layers (BN -> ReLU -> Conv1x1 halving the channels -> 2x2 average pool) between blocks,
a final BN + ReLU, global average pool and a 1000-way classifier. BatchNorm uses batch statistics
(training mode).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# Sized so the GPU sets the time: at a batch of 32 the H200 spent 16.0 ms of host time queueing against 10.0 ms of GPU work
# (lint rule `host-bound`; docs/benchmarks.md, session 25).
BATCH = 128
IN_CHANNELS = 3
IMAGE_SIZE = 224
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "IMAGE_SIZE": 199}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 49}]

GROWTH_RATE = 32
BLOCK_LAYERS = [6, 12, 24, 16]
STEM_CHANNELS = 64
BOTTLENECK_FACTOR = 4


class DenseLayer(nn.Module):
    def __init__(self, in_channels: int):
        super().__init__()
        inner = BOTTLENECK_FACTOR * GROWTH_RATE
        self.bn1 = nn.BatchNorm2d(in_channels)
        self.conv1 = nn.Conv2d(in_channels, inner, kernel_size=1, bias=False)
        self.bn2 = nn.BatchNorm2d(inner)
        self.conv2 = nn.Conv2d(inner, GROWTH_RATE, kernel_size=3, padding=1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv1(F.relu(self.bn1(x)))
        return self.conv2(F.relu(self.bn2(y)))


class DenseBlock(nn.Module):
    def __init__(self, in_channels: int, num_layers: int):
        super().__init__()
        self.layers = nn.ModuleList(DenseLayer(in_channels + i * GROWTH_RATE) for i in range(num_layers))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        features = [x]
        for layer in self.layers:
            features.append(layer(torch.cat(features, dim=1)))
        return torch.cat(features, dim=1)


class Transition(nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(in_channels)
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.avg_pool2d(self.conv(F.relu(self.bn(x))), kernel_size=2, stride=2)


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(in_channels, STEM_CHANNELS, kernel_size=7, stride=2, padding=3, bias=False),
            nn.BatchNorm2d(STEM_CHANNELS),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
        )
        stages = []
        channels = STEM_CHANNELS
        for i, n in enumerate(BLOCK_LAYERS):
            stages.append(DenseBlock(channels, n))
            channels += n * GROWTH_RATE
            if i != len(BLOCK_LAYERS) - 1:
                stages.append(Transition(channels, channels // 2))
                channels //= 2
        self.stages = nn.Sequential(*stages)
        self.final_bn = nn.BatchNorm2d(channels)
        self.classifier = nn.Linear(channels, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.relu(self.final_bn(self.stages(self.stem(x))))
        x = F.adaptive_avg_pool2d(x, 1).flatten(1)
        return self.classifier(x)


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES]
