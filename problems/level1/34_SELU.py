"""Elementwise SELU (fixed scale 1.0507 and alpha 1.6733) over the hidden activations of a self-normalizing MLP (131072 x 5120)."""
import torch
import torch.nn as nn

BATCH = 131072
HIDDEN = 5120

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 50001, "HIDDEN": 4999}]
cpu_extra_sizes = [{"BATCH": 333, "HIDDEN": 3001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.selu(x)


def get_inputs():
    x = torch.randn(BATCH, HIDDEN)
    return [x]


def get_init_inputs():
    return []
