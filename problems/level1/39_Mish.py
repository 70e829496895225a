"""Elementwise Mish x * tanh(softplus(x)), the YOLOv4 backbone activation, over 64 x 128 x 304 x 304 feature maps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 64
CHANNELS = 128
HEIGHT = 304
WIDTH = 304

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "HEIGHT": 152, "WIDTH": 152}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 23, "CHANNELS": 127, "HEIGHT": 301, "WIDTH": 299}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 37, "HEIGHT": 75, "WIDTH": 77}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.mish(x)


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) * 2.0
    return [x]


def get_init_inputs():
    return []
