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
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3, "CHANNELS": 63, "FRAMES": 15, "HEIGHT": 317, "WIDTH": 311}]
cpu_extra_sizes = [{"BATCH": 1, "CHANNELS": 13, "FRAMES": 3, "HEIGHT": 97, "WIDTH": 101}]


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
