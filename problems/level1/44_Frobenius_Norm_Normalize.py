"""Frobenius-norm normalisation of a whole tensor: y = x / ||x||_F, rescaled by sqrt(numel) so the
output has unit RMS. The norm is one reduction over every element (a grid-wide reduction) followed
by an elementwise pass."""
import math

import torch
import torch.nn as nn

BATCH = 40
CHANNELS = 64
HEIGHT = 512
WIDTH = 512

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "CHANNELS": 32, "HEIGHT": 128, "WIDTH": 128}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 17, "CHANNELS": 63, "HEIGHT": 509, "WIDTH": 499}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 13, "HEIGHT": 97, "WIDTH": 101}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        norm = torch.linalg.vector_norm(x)  # Frobenius norm over all elements
        return x * (math.sqrt(x.numel()) / norm)


def get_inputs():
    # Scale drawn per call, so the normalisation is not a fixed constant factor.
    scale = torch.rand(1) * 5.0 + 0.5
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) * scale + 0.3
    return [x]


def get_init_inputs():
    return []
