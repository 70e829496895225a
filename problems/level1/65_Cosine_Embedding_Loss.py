"""Cosine embedding loss per pair (reduction='none'): 1 - cos(x1, x2) for similar pairs (y = 1),
max(0, cos(x1, x2) - margin) for dissimilar pairs (y = -1); int64 labels."""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 1048576
DIM = 512
MARGIN = 0.2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4096}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 300007, "DIM": 777}]
cpu_extra_sizes = [{"BATCH": 777, "DIM": 333}]


class Model(nn.Module):
    def __init__(self, margin: float):
        super().__init__()
        self.margin = margin

    def forward(self, x1: torch.Tensor, x2: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return F.cosine_embedding_loss(x1, x2, y, margin=self.margin, reduction="none")


def get_inputs():
    x1 = torch.randn(BATCH, DIM)
    # x2 = a * x1 + noise with a per-pair a in [-2, 2]: cosines spread over most of [-1, 1].
    a = torch.rand(BATCH, 1).mul_(4.0).sub_(2.0)
    x2 = torch.randn(BATCH, DIM).add_(x1 * a)
    y = torch.randint(0, 2, (BATCH,)) * 2 - 1
    return [x1, x2, y]


def get_init_inputs():
    return [MARGIN]
