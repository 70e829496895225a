"""One DenseNet dense block: twelve layers, each BN -> ReLU -> Conv1x1 (4*growth channels) -> BN ->
ReLU -> Conv3x3 (growth channels) applied to the concatenation of the block input and every
earlier layer's output; the block returns the full concatenation (128 + 12*32 = 512 channels).
Shapes are those of DenseNet-121's second block. BatchNorm uses batch statistics (training mode).
"""
import torch
import torch.nn as nn

BATCH = 128
IN_CHANNELS = 128
NUM_LAYERS = 12
GROWTH_RATE = 32
IMAGE_SIZE = 28

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 14}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 61, "IMAGE_SIZE": 23}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 11}]

BOTTLENECK_FACTOR = 4


class DenseLayer(nn.Module):
    def __init__(self, in_channels: int, growth_rate: int):
        super().__init__()
        inner = BOTTLENECK_FACTOR * growth_rate
        self.bn1 = nn.BatchNorm2d(in_channels)
        self.conv1 = nn.Conv2d(in_channels, inner, kernel_size=1, bias=False)
        self.bn2 = nn.BatchNorm2d(inner)
        self.conv2 = nn.Conv2d(inner, growth_rate, kernel_size=3, padding=1, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv1(torch.relu(self.bn1(x)))
        return self.conv2(torch.relu(self.bn2(y)))


class Model(nn.Module):
    def __init__(self, in_channels: int, num_layers: int, growth_rate: int):
        super().__init__()
        self.layers = nn.ModuleList(
            DenseLayer(in_channels + i * growth_rate, growth_rate) for i in range(num_layers)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        features = [x]
        for layer in self.layers:
            features.append(layer(torch.cat(features, dim=1)))
        return torch.cat(features, dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, NUM_LAYERS, GROWTH_RATE]
