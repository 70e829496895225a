# expect: incorrect
# Computes relu(a - b) instead of relu(a + b): right shape and dtype, wrong values.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a - b)
