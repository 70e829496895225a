"""Elementwise ELU (alpha 1.0) over a 5D video feature volume (batch 8, 64 channels, 16 frames, 320 x 320)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8
CHANNELS = 64
FRAMES = 16
HEIGHT = 320
WIDTH = 320
ALPHA = 1.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "FRAMES": 4, "HEIGHT": 160, "WIDTH": 160}


class Model(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.elu(x, alpha=self.alpha)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, FRAMES, HEIGHT, WIDTH)
    return [x]


def get_init_inputs():
    return [ALPHA]
