"""Elementwise sigmoid over a batch of CNN feature maps (48 x 256 x 256 x 256, NCHW)."""
import torch
import torch.nn as nn

BATCH = 48
CHANNELS = 256
HEIGHT = 256
WIDTH = 256

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "HEIGHT": 128, "WIDTH": 128}


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(x)


def get_inputs():
    # Standard deviation 2 spreads the outputs over (0, 1) without saturating most of them.
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return []
