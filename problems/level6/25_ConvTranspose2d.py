"""Training step of a 2D transposed convolution that upsamples by 2 (kernel 4, stride 2,
padding 1, with bias; NCHW), the up-sampling layer of DCGAN / pix2pix-style decoders and
generators: 64 images, 256 -> 128 channels, 32 x 32 -> 64 x 64.
x [64, 256, 32, 32], weight [256, 128, 4, 4], bias [128]. Returns [64, 128, 64, 64].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of the weight and bias.
Why it matters for training: a strided transposed convolution touches each output with a
different subset of the kernel (4 phases of 2 x 2 taps here); its data gradient is a strided
ordinary convolution and its weight gradient a reduction over batch and space, and decoders and
GAN generators run it at every resolution of every step.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 64
IN_CHANNELS = 256
OUT_CHANNELS = 128
HEIGHT = 32
WIDTH = 32
KERNEL_SIZE = 4
STRIDE = 2
PADDING = 1

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "IN_CHANNELS": 32, "OUT_CHANNELS": 16, "HEIGHT": 16, "WIDTH": 16}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "HEIGHT": 29, "WIDTH": 23}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 13, "WIDTH": 11}]


class Model(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int, stride: int, padding: int):
        super().__init__()
        self.deconv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.deconv(x)


def get_inputs():
    x = torch.randn(BATCH, IN_CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [IN_CHANNELS, OUT_CHANNELS, KERNEL_SIZE, STRIDE, PADDING]
