import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    """Cosine embedding loss (reduction='none') from F.cosine_similarity and torch.where."""

    def __init__(self, margin: float):
        super(ModelNew, self).__init__()
        self.margin = margin

    def forward(self, x1: torch.Tensor, x2: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        cos = F.cosine_similarity(x1, x2, dim=1)
        pos_loss = 1.0 - cos
        neg_loss = torch.clamp(cos - self.margin, min=0.0)
        # y is int64 with values in {1, -1}
        return torch.where(y == 1, pos_loss, neg_loss)


BATCH = 1048576
DIM = 512
MARGIN = 0.2


def get_inputs():
    x1 = torch.randn(BATCH, DIM)
    a = torch.rand(BATCH, 1).mul_(4.0).sub_(2.0)
    x2 = torch.randn(BATCH, DIM).add_(x1 * a)
    y = torch.randint(0, 2, (BATCH,)) * 2 - 1
    return [x1, x2, y]


def get_init_inputs():
    return [MARGIN]
