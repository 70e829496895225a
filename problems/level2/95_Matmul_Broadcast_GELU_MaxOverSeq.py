"""Sequence batch times a shared weight matrix given as a second input (broadcast matmul), exact GELU,
then maximum over the sequence dimension (max pooling over tokens)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 32
SEQ_LEN = 512
IN_FEATURES = 768
OUT_FEATURES = 4096

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 64, "IN_FEATURES": 384, "OUT_FEATURES": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"SEQ_LEN": 251, "OUT_FEATURES": 1531}, {"BATCH": 13, "IN_FEATURES": 389}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 37, "IN_FEATURES": 197, "OUT_FEATURES": 517}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
        y = torch.matmul(x, w)
        y = F.gelu(y)
        return torch.amax(y, dim=1)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, IN_FEATURES)
    w = torch.randn(IN_FEATURES, OUT_FEATURES) / math.sqrt(IN_FEATURES)
    return [x, w]


def get_init_inputs():
    return []
