"""One ResNet basic block that downsamples: Conv3x3(stride 2) -> BN -> ReLU -> Conv3x3 -> BN, plus a
projection shortcut Conv1x1(stride 2) -> BN, then add and ReLU. BatchNorm uses batch statistics
(training mode). Shapes are those of the first block of ResNet-18's second stage.
"""
import torch
import torch.nn as nn

BATCH = 512
IN_CHANNELS = 64
OUT_CHANNELS = 128
IMAGE_SIZE = 56
STRIDE = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 24}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 223, "IMAGE_SIZE": 45}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 19}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, stride: int):
        super().__init__()
        self.conv1 = nn.Conv2d(in_channels, out_channels, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_channels)
        self.conv2 = nn.Conv2d(out_channels, out_channels, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(out_channels)
        self.shortcut = nn.Sequential(
            nn.Conv2d(in_channels, out_channels, kernel_size=1, stride=stride, bias=False),
            nn.BatchNorm2d(out_channels),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return torch.relu(y + self.shortcut(x))


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, STRIDE]
