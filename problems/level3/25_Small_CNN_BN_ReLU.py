"""Small CIFAR-style vision CNN: three stages of two Conv3x3 -> BatchNorm -> ReLU layers (64, 128
and 256 channels), a 2x2 max-pool after each of the first two stages, global average pooling and a
10-way linear classifier. BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn

BATCH = 768
IN_CHANNELS = 3
IMAGE_SIZE = 32
WIDTH_1 = 64
WIDTH_2 = 128
WIDTH_3 = 256
NUM_CLASSES = 10

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "IMAGE_SIZE": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 307, "IMAGE_SIZE": 29}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 13}]


def conv_bn_relu(in_channels: int, out_channels: int) -> list:
    return [
        nn.Conv2d(in_channels, out_channels, kernel_size=3, padding=1, bias=False),
        nn.BatchNorm2d(out_channels),
        nn.ReLU(inplace=True),
    ]


class Model(nn.Module):
    def __init__(self, in_channels: int, width_1: int, width_2: int, width_3: int, num_classes: int):
        super().__init__()
        self.features = nn.Sequential(
            *conv_bn_relu(in_channels, width_1),
            *conv_bn_relu(width_1, width_1),
            nn.MaxPool2d(2),
            *conv_bn_relu(width_1, width_2),
            *conv_bn_relu(width_2, width_2),
            nn.MaxPool2d(2),
            *conv_bn_relu(width_2, width_3),
            *conv_bn_relu(width_3, width_3),
        )
        self.fc = nn.Linear(width_3, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.features(x)
        return self.fc(torch.mean(x, dim=(2, 3)))


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, WIDTH_1, WIDTH_2, WIDTH_3, NUM_CLASSES]
