"""VGG-19 with batch normalisation (configuration E): sixteen Conv3x3 -> BatchNorm -> ReLU layers in
five stages separated by 2x2 max-pools, an adaptive average pool to 7x7, then three fully connected
layers (no dropout) giving 1000 logits. BatchNorm runs in training mode (batch statistics).
"""
import torch
import torch.nn as nn

BATCH = 10
IN_CHANNELS = 3
IMAGE_SIZE = 224
FC_HIDDEN = 4096
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "IMAGE_SIZE": 32, "FC_HIDDEN": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "IMAGE_SIZE": 161}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 33}]

CONVS_PER_STAGE = [2, 2, 4, 4, 4]
STAGE_CHANNELS = [64, 128, 256, 512, 512]


class Model(nn.Module):
    def __init__(self, in_channels: int, fc_hidden: int, num_classes: int):
        super().__init__()
        layers = []
        prev = in_channels
        for n, width in zip(CONVS_PER_STAGE, STAGE_CHANNELS):
            for _ in range(n):
                layers += [
                    nn.Conv2d(prev, width, kernel_size=3, padding=1),
                    nn.BatchNorm2d(width),
                    nn.ReLU(inplace=True),
                ]
                prev = width
            layers.append(nn.MaxPool2d(kernel_size=2, stride=2))
        self.features = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d((7, 7))
        self.classifier = nn.Sequential(
            nn.Linear(prev * 7 * 7, fc_hidden),
            nn.ReLU(inplace=True),
            nn.Linear(fc_hidden, fc_hidden),
            nn.ReLU(inplace=True),
            nn.Linear(fc_hidden, num_classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.flatten(self.pool(self.features(x)), 1)
        return self.classifier(x)


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, FC_HIDDEN, NUM_CLASSES]
