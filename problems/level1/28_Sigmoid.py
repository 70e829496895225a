"""Elementwise sigmoid over a batch of CNN feature maps (48 x 256 x 256 x 256, NCHW)."""
import torch
import torch.nn as nn

BATCH = 48
CHANNELS = 256
HEIGHT = 256
WIDTH = 256

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "HEIGHT": 128, "WIDTH": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "CHANNELS": 255, "HEIGHT": 253, "WIDTH": 251}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 37, "HEIGHT": 97, "WIDTH": 101}]


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
