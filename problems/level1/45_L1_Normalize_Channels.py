"""L1 normalisation along the channel dimension (dim=1) of an NCHW tensor: every pixel's feature
vector is divided by its L1 norm (F.normalize with p=1), then multiplied by the channel count so the
mean absolute value is 1. The reduction runs across a strided dimension."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
CHANNELS = 48
HEIGHT = 512
WIDTH = 640

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "HEIGHT": 64, "WIDTH": 96}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 13, "HEIGHT": 509, "WIDTH": 637}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 37, "WIDTH": 53}]


class Model(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.channels = channels

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.normalize(x, p=1.0, dim=1) * self.channels


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) + 0.5
    return [x]


def get_init_inputs():
    return [CHANNELS]
