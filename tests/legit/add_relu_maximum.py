# legit: relu(a + b) as torch.maximum(a + b, 0), the zero a 0-dim tensor that broadcasts.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        s = a + b
        return torch.maximum(s, s.new_zeros(()))
