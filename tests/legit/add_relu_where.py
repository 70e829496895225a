# legit: relu(a + b) as torch.where(s > 0, s, 0).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        s = a + b
        return torch.where(s > 0, s, 0.0)
