"""Elementwise HardSigmoid clamp(x / 6 + 1/2, 0, 1), the gate of MobileNetV3, over 256 x 120 x 160 x 160 feature maps."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 256
CHANNELS = 120
HEIGHT = 160
WIDTH = 160

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "HEIGHT": 80, "WIDTH": 80}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 97, "CHANNELS": 119, "HEIGHT": 157, "WIDTH": 161}]
cpu_extra_sizes = [{"BATCH": 3, "CHANNELS": 37, "HEIGHT": 79, "WIDTH": 83}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.hardsigmoid(x)


def get_inputs():
    # Standard deviation 3: about a third of the inputs fall outside [-3, 3] and are clamped.
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH) * 3.0
    return [x]


def get_init_inputs():
    return []
