"""Training step of a depthwise 2D convolution (groups = channels) with a 7x7 kernel, padding 3,
with bias (NCHW), as ConvNeXt's token mixer, at ConvNeXt-T's first stage on 224 x 224 images:
128 images, 96 channels at 56 x 56. x [128, 96, 56, 56], weight [96, 1, 7, 7], bias [96].
Returns [128, 96, 56, 56].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of the weight and bias.
Why it matters for training: depthwise convolutions have too little arithmetic per byte for
tensor cores, and their weight gradient reduces 49 taps per channel over the whole batch and
image, a reduction generic convolution backends handle poorly; in ConvNeXt and MobileNet-style
networks they take a share of training time far beyond their FLOPs.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 128
CHANNELS = 96
HEIGHT = 56
WIDTH = 56
KERNEL_SIZE = 7

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "CHANNELS": 32, "HEIGHT": 28, "WIDTH": 28}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 61, "HEIGHT": 53, "WIDTH": 45}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 23, "WIDTH": 19}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, kernel_size, padding=kernel_size // 2, groups=channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE]
