# legit: relu(a + b) as torch.clamp(a + b, min=0).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.clamp(a + b, min=0.0)
