"""MobileNetV2: a 3x3 stride-2 stem conv, seventeen inverted-residual blocks (1x1 expansion conv
-> BN -> ReLU6 -> 3x3 depthwise conv -> BN -> ReLU6 -> 1x1 linear projection -> BN, with a residual
add when stride is 1 and the channel count is unchanged), a 1x1 conv to 1280 channels, global
average pool and a 1000-way classifier (no dropout). BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn

BATCH = 96
IN_CHANNELS = 3
IMAGE_SIZE = 224
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 41, "IMAGE_SIZE": 199}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 49}]

# (expansion factor, output channels, repeats, stride of the first repeat)
STAGES = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]
STEM_CHANNELS = 32
HEAD_CHANNELS = 1280


def conv_bn(in_channels: int, out_channels: int, kernel_size: int, stride: int = 1, groups: int = 1,
            act: bool = True) -> nn.Sequential:
    layers = [
        nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=kernel_size // 2,
                  groups=groups, bias=False),
        nn.BatchNorm2d(out_channels),
    ]
    if act:
        layers.append(nn.ReLU6(inplace=True))
    return nn.Sequential(*layers)


class InvertedResidual(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, stride: int, expansion: int):
        super().__init__()
        hidden = in_channels * expansion
        layers = []
        if expansion != 1:
            layers.append(conv_bn(in_channels, hidden, 1))
        layers.append(conv_bn(hidden, hidden, 3, stride=stride, groups=hidden))
        layers.append(conv_bn(hidden, out_channels, 1, act=False))
        self.body = nn.Sequential(*layers)
        self.residual = stride == 1 and in_channels == out_channels

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.body(x)
        return x + y if self.residual else y


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int):
        super().__init__()
        layers = [conv_bn(in_channels, STEM_CHANNELS, 3, stride=2)]
        prev = STEM_CHANNELS
        for expansion, channels, repeats, stride in STAGES:
            for i in range(repeats):
                layers.append(InvertedResidual(prev, channels, stride if i == 0 else 1, expansion))
                prev = channels
        layers.append(conv_bn(prev, HEAD_CHANNELS, 1))
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(HEAD_CHANNELS, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        return self.classifier(torch.mean(x, dim=(2, 3)))


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES]
