"""ShuffleNetV2 1.0x: 3x3 stride-2 stem conv (24 channels) + max-pool, three stages of 4, 8 and 4
units (116, 232, 464 channels), a 1x1 conv to 1024 channels, global average pool and a 1000-way
classifier. A stride-1 unit splits the channels in half, passes one half through and runs the other
through 1x1 conv -> BN -> ReLU -> 3x3 depthwise conv -> BN -> 1x1 conv -> BN -> ReLU; a stride-2
unit runs two downsampling branches on the whole input. Both concatenate the halves and shuffle the
channels (2 groups). BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn

# Sized so the GPU sets the time: at a batch of 192 the H200 queued 8.36 ms of GPU work with a host share of 0.58, and its identity
# speedups were 1.0047 [0.9967, 1.1811] (docs/benchmarks.md, session 27).
BATCH = 384
IN_CHANNELS = 3
IMAGE_SIZE = 224
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 79, "IMAGE_SIZE": 199}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 49}]

STAGE_REPEATS = [4, 8, 4]
STAGE_CHANNELS = [116, 232, 464]
STEM_CHANNELS = 24
HEAD_CHANNELS = 1024


def channel_shuffle(x: torch.Tensor, groups: int) -> torch.Tensor:
    b, c, h, w = x.shape
    return x.view(b, groups, c // groups, h, w).transpose(1, 2).reshape(b, c, h, w)


def pointwise(in_channels: int, out_channels: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(in_channels, out_channels, 1, bias=False), nn.BatchNorm2d(out_channels),
                         nn.ReLU(inplace=True))


def depthwise(channels: int, stride: int) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(channels, channels, 3, stride=stride, padding=1, groups=channels, bias=False),
                         nn.BatchNorm2d(channels))


class Unit(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, stride: int):
        super().__init__()
        half = out_channels // 2
        self.stride = stride
        self.branch1 = None
        if stride == 2:
            self.branch1 = nn.Sequential(depthwise(in_channels, 2), pointwise(in_channels, half))
            branch_in = in_channels
        else:
            branch_in = half
        self.branch2 = nn.Sequential(pointwise(branch_in, half), depthwise(half, stride), pointwise(half, half))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.branch1 is None:
            keep, work = x.chunk(2, dim=1)
            out = torch.cat([keep, self.branch2(work)], dim=1)
        else:
            out = torch.cat([self.branch1(x), self.branch2(x)], dim=1)
        return channel_shuffle(out, 2)


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(in_channels, STEM_CHANNELS, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(STEM_CHANNELS),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(kernel_size=3, stride=2, padding=1),
        )
        units = []
        prev = STEM_CHANNELS
        for repeats, channels in zip(STAGE_REPEATS, STAGE_CHANNELS):
            for i in range(repeats):
                units.append(Unit(prev, channels, 2 if i == 0 else 1))
                prev = channels
        self.units = nn.Sequential(*units)
        self.head = pointwise(prev, HEAD_CHANNELS)
        self.fc = nn.Linear(HEAD_CHANNELS, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.head(self.units(self.stem(x)))
        return self.fc(torch.mean(x, dim=(2, 3)))


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES]
