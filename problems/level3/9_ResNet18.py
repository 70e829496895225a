"""ResNet-18: 7x7 stem conv + max-pool, four stages of two basic blocks each (64, 128, 256, 512
channels; the first block of stages 2-4 downsamples with a 1x1 projection shortcut), global
average pool and a 1000-way linear classifier. BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn

# Sized so the GPU sets the time: at a batch of 64 the H200 queued 4.19 ms of GPU work with a host share of 0.50, and its identity
# speedups were 1.0057 (docs/benchmarks.md, session 27).
BATCH = 128
IN_CHANNELS = 3
IMAGE_SIZE = 224
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "IMAGE_SIZE": 199}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 49}]


class BasicBlock(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.conv2 = nn.Conv2d(out_channels, out_channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.shortcut = None
        if stride != 1 or in_channels != out_channels:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_channels, out_channels, 1, stride=stride, bias=False),
                nn.BatchNorm2d(out_channels),
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
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
        for i, width in enumerate([64, 128, 256, 512]):
            stride = 1 if i == 0 else 2
            blocks.append(BasicBlock(prev, width, stride))
            blocks.append(BasicBlock(width, width, 1))
            prev = width
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
