"""Training step of the Mish activation, x * tanh(softplus(x)), of a YOLOv4 (CSPDarknet53)
backbone at its 608-pixel input: the second stage's activations [64, 64, 304, 304] (batch 64,
64 channels, 1.5 GB in fp32). Forward returns mish(x) [64, 64, 304, 304]; backward multiplies
the upstream gradient by Mish's derivative at the saved input,
tanh(sp) + x * sigmoid(x) * (1 - tanh(sp)^2) with sp = softplus(x). The gradient of x is
compared (the only input). Memory-bound despite the exp, log1p and tanh per element: the
forward reads and writes an activation-sized tensor, the backward reads two and writes one,
after every convolution of the backbone.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

BATCH = 64
CHANNELS = 64
HEIGHT = 304
WIDTH = 304

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "CHANNELS": 16, "HEIGHT": 32, "WIDTH": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "HEIGHT": 303, "WIDTH": 301}]
cpu_extra_sizes = [{"BATCH": 3, "HEIGHT": 31, "WIDTH": 29}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.mish(x)


def get_inputs():
    # Batch-normalised pre-activations with a per-channel shift and spread from 1 to 4: Mish's
    # negative dip, its linear tail and the far negative tail where it vanishes all occur.
    shift = torch.randn(1, CHANNELS, 1, 1)
    scale = torch.rand(1, CHANNELS, 1, 1).mul_(3.0).add_(1.0)
    x = torch.randn(BATCH, CHANNELS, HEIGHT, WIDTH).mul_(scale).add_(shift)
    return [x]


def get_init_inputs():
    return []
