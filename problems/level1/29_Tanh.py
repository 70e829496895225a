"""Elementwise tanh over transformer-shaped activations (batch 64, sequence 2048, hidden 5120)."""
import torch
import torch.nn as nn

BATCH = 64
SEQ_LEN = 2048
HIDDEN = 5120

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "SEQ_LEN": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "SEQ_LEN": 2047, "HIDDEN": 4001}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 333, "HIDDEN": 1001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, HIDDEN)
    return [x]


def get_init_inputs():
    return []
