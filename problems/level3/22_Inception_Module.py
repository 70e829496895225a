"""One GoogLeNet inception module (3b): four parallel branches on the same input, concatenated
along channels: 1x1 conv; 1x1 reduce -> 3x3 conv; 1x1 reduce -> 5x5 conv; 3x3 stride-1 max-pool ->
1x1 conv. Every conv is followed by ReLU (original formulation, no batch norm). 256 channels in,
128 + 192 + 96 + 64 = 480 out, on a 28x28 map.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 384
IN_CHANNELS = 256
OUT_1X1 = 128
REDUCE_3X3 = 128
OUT_3X3 = 192
REDUCE_5X5 = 32
OUT_5X5 = 96
POOL_PROJ = 64
IMAGE_SIZE = 28

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IMAGE_SIZE": 14}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 163, "IMAGE_SIZE": 25}]
cpu_extra_sizes = [{"BATCH": 3, "IMAGE_SIZE": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_1x1: int, reduce_3x3: int, out_3x3: int, reduce_5x5: int,
                 out_5x5: int, pool_proj: int):
        super().__init__()
        self.b1 = nn.Conv2d(in_channels, out_1x1, kernel_size=1)
        self.b2_reduce = nn.Conv2d(in_channels, reduce_3x3, kernel_size=1)
        self.b2 = nn.Conv2d(reduce_3x3, out_3x3, kernel_size=3, padding=1)
        self.b3_reduce = nn.Conv2d(in_channels, reduce_5x5, kernel_size=1)
        self.b3 = nn.Conv2d(reduce_5x5, out_5x5, kernel_size=5, padding=2)
        self.b4 = nn.Conv2d(in_channels, pool_proj, kernel_size=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y1 = F.relu(self.b1(x))
        y2 = F.relu(self.b2(F.relu(self.b2_reduce(x))))
        y3 = F.relu(self.b3(F.relu(self.b3_reduce(x))))
        y4 = F.relu(self.b4(F.max_pool2d(x, kernel_size=3, stride=1, padding=1)))
        return torch.cat([y1, y2, y3, y4], dim=1)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, IMAGE_SIZE, IMAGE_SIZE)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_1X1, REDUCE_3X3, OUT_3X3, REDUCE_5X5, OUT_5X5, POOL_PROJ]
