"""Elementwise LeakyReLU with negative slope 0.2 (a GAN discriminator's setting) over 32 x 128 x 448 x 448 feature maps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
CHANNELS = 128
HEIGHT = 448
WIDTH = 448
NEGATIVE_SLOPE = 0.2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "HEIGHT": 112, "WIDTH": 112}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 23, "CHANNELS": 127, "HEIGHT": 333, "WIDTH": 301}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 37, "HEIGHT": 97, "WIDTH": 75}]


class Model(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.leaky_relu(x, negative_slope=self.negative_slope)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [NEGATIVE_SLOPE]
