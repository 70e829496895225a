"""Test problem (training): a mean cross-entropy over 4096 rows of 50 classes, int64 labels, the
logits differentiated. Every element of their gradient is under 1/4096, far below fp32's atol of
1e-4 for most: only a comparison at the gradient's own scale tells zeros from it."""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

ROWS = 4096
CLASSES = 50

cpu_sizes = {"ROWS": 4096}
extra_sizes = [{"ROWS": 999}]
cpu_extra_sizes = [{"ROWS": 999}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
        return F.cross_entropy(logits, labels)


def get_inputs():
    return [2.0 * torch.randn(ROWS, CLASSES), torch.randint(0, CLASSES, (ROWS,))]


def get_init_inputs():
    return []
