"""Triplet margin loss per triplet: max(||a - p||_2 - ||a - n||_2 + margin, 0) for 768-dim
embeddings (reduction='none', one loss per triplet)."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 524288
DIM = 768
MARGIN = 1.0

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2048}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 150001, "DIM": 999}]
cpu_extra_sizes = [{"BATCH": 333, "DIM": 257}]


class Model(nn.Module):
    def __init__(self, margin: float):
        super().__init__()
        self.margin = margin

    def forward(self, anchor: torch.Tensor, positive: torch.Tensor, negative: torch.Tensor) -> torch.Tensor:
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=2.0, reduction="none")


def get_inputs():
    # Unrelated embeddings: the two distances differ by O(1), so most triplets are active
    # (about 1 in 6 is clipped to zero by the margin).
    anchor = torch.randn(BATCH, DIM)
    positive = torch.randn(BATCH, DIM)
    negative = torch.randn(BATCH, DIM)
    return [anchor, positive, negative]


def get_init_inputs():
    return [MARGIN]
