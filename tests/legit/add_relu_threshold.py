# legit: relu(a + b) as F.threshold(a + b, 0, 0) (x where x > 0, else 0).
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return F.threshold(a + b, 0.0, 0.0)
