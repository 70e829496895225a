"""MobileNetV1: a 3x3 stride-2 stem conv, then thirteen depthwise-separable blocks (3x3 depthwise
conv -> BN -> ReLU -> 1x1 pointwise conv -> BN -> ReLU; channels 64 .. 1024, five of them stride
2), global average pool and a 1000-way classifier. WIDTH_MULT scales every layer's channel count.
BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn

BATCH = 128
IN_CHANNELS = 3
IMAGE_SIZE = 224
NUM_CLASSES = 1000
WIDTH_MULT = 1.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 53, "IMAGE_SIZE": 199}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 49}]

# (output channels, stride) of each depthwise-separable block at width multiplier 1.
BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2),
          (512, 1), (512, 1), (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1)]


def conv_bn_relu(in_channels: int, out_channels: int, kernel_size: int, stride: int, groups: int) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(in_channels, out_channels, kernel_size, stride=stride, padding=kernel_size // 2,
                  groups=groups, bias=False),
        nn.BatchNorm2d(out_channels),
        nn.ReLU(inplace=True),
    )


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int, width_mult: float):
        super().__init__()
        stem = int(32 * width_mult)
        layers = [conv_bn_relu(in_channels, stem, 3, 2, 1)]
        prev = stem
        for channels, stride in BLOCKS:
            out = int(channels * width_mult)
            layers.append(conv_bn_relu(prev, prev, 3, stride, prev))  # depthwise
            layers.append(conv_bn_relu(prev, out, 1, 1, 1))  # pointwise
            prev = out
        self.features = nn.Sequential(*layers)
        self.fc = nn.Linear(prev, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        return self.fc(torch.mean(x, dim=(2, 3)))


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES, WIDTH_MULT]
