"""Training step of a 2D convolution, 3x3 kernel, stride 1, padding 1, with bias (NCHW), at
VGG-16's conv2_2 on 224 x 224 images: 32 images, 128 -> 128 channels at 112 x 112.
x [32, 128, 112, 112], weight [128, 128, 3, 3], bias [128]. Returns [32, 128, 112, 112].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of the weight and bias.
Why it matters for training: a convolution's backward is two more convolutions of the forward's
cost, the data gradient (a transposed convolution of the upstream gradient) and the weight
gradient (a reduction over batch and space, the hardest of the three to parallelise well), plus
the bias gradient's sum; together they are two thirds of a CNN's training time.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 32
IN_CHANNELS = 128
OUT_CHANNELS = 128
HEIGHT = 112
WIDTH = 112
KERNEL_SIZE = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 16, "OUT_CHANNELS": 32, "HEIGHT": 32, "WIDTH": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "HEIGHT": 97, "WIDTH": 111}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 23, "WIDTH": 29}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE]
