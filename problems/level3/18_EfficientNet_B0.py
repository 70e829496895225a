"""EfficientNet-B0: 3x3 stride-2 stem conv (32 channels), sixteen MBConv blocks in seven stages
(1x1 expansion, 3x3 or 5x5 depthwise conv, squeeze-and-excitation at 1/4 of the block's input
channels, 1x1 projection, identity shortcut when shapes match), a 1x1 head conv to 1280 channels,
global average pool and a 1000-way classifier (no dropout, no stochastic depth). Activations are
SiLU; BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# Sized so the GPU sets the time: at a batch of 64 the H200 queued 8.78 ms of GPU work with a host share of 0.75, and its identity
# speedups were 1.0057, then 1.1155 with the reference's host the slower (docs/benchmarks.md, session 27).
BATCH = 128
IN_CHANNELS = 3
IMAGE_SIZE = 224
NUM_CLASSES = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 64}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "IMAGE_SIZE": 199}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 49}]

# (expansion ratio, depthwise kernel, stride of the first repeat, output channels, repeats)
STAGES = [(1, 3, 1, 16, 1), (6, 3, 2, 24, 2), (6, 5, 2, 40, 2), (6, 3, 2, 80, 3),
          (6, 5, 1, 112, 3), (6, 5, 2, 192, 4), (6, 3, 1, 320, 1)]
STEM_CHANNELS = 32
HEAD_CHANNELS = 1280
SE_RATIO = 0.25


class MBConv(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, expand_ratio: int, kernel_size: int, stride: int):
        super().__init__()
        hidden = in_channels * expand_ratio
        se_channels = max(1, int(in_channels * SE_RATIO))
        self.expand = None
        if expand_ratio != 1:
            self.expand = nn.Sequential(nn.Conv2d(in_channels, hidden, 1, bias=False), nn.BatchNorm2d(hidden))
        self.depthwise = nn.Conv2d(hidden, hidden, kernel_size, stride=stride, padding=kernel_size // 2,
                                   groups=hidden, bias=False)
        self.bn_dw = nn.BatchNorm2d(hidden)
        self.se_reduce = nn.Conv2d(hidden, se_channels, 1)
        self.se_expand = nn.Conv2d(se_channels, hidden, 1)
        self.project = nn.Conv2d(hidden, out_channels, 1, bias=False)
        self.bn_proj = nn.BatchNorm2d(out_channels)
        self.residual = stride == 1 and in_channels == out_channels

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x if self.expand is None else F.silu(self.expand(x))
        y = F.silu(self.bn_dw(self.depthwise(y)))
        s = torch.mean(y, dim=(2, 3), keepdim=True)
        y = y * torch.sigmoid(self.se_expand(F.silu(self.se_reduce(s))))
        y = self.bn_proj(self.project(y))
        return x + y if self.residual else y


class Model(nn.Module):
    def __init__(self, in_channels: int, num_classes: int):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(in_channels, STEM_CHANNELS, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(STEM_CHANNELS),
            nn.SiLU(inplace=True),
        )
        blocks = []
        prev = STEM_CHANNELS
        for expand_ratio, kernel_size, stride, channels, repeats in STAGES:
            for i in range(repeats):
                blocks.append(MBConv(prev, channels, expand_ratio, kernel_size, stride if i == 0 else 1))
                prev = channels
        self.blocks = nn.Sequential(*blocks)
        self.head = nn.Sequential(
            nn.Conv2d(prev, HEAD_CHANNELS, 1, bias=False),
            nn.BatchNorm2d(HEAD_CHANNELS),
            nn.SiLU(inplace=True),
        )
        self.classifier = nn.Linear(HEAD_CHANNELS, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.head(self.blocks(self.stem(x)))
        return self.classifier(torch.mean(x, dim=(2, 3)))


def get_inputs():
    # Noise images plus a random colour offset per image and channel, so that the globally pooled
    # features, and with them the logits, differ clearly from one image to the next.
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE) + torch.randn(BATCH, IN_CHANNELS, 1, 1)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_CLASSES]
