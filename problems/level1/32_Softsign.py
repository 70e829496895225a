"""Elementwise Softsign x / (1 + |x|) over transformer-shaped activations; eager PyTorch runs it as three separate kernels."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 16
SEQ_LEN = 4096
HIDDEN = 8192

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 1, "SEQ_LEN": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "SEQ_LEN": 4001, "HIDDEN": 7001}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 111, "HIDDEN": 3001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.softsign(x)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, HIDDEN) * 2.0
    return [x]


def get_init_inputs():
    return []
