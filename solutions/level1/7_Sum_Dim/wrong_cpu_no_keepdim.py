# WRONG ON PURPOSE: sums over the dim but drops keepdim, so the output has shape (ROWS,)
# instead of (ROWS, 1). Values are right, shape is wrong. Expected verdict: incorrect.
"""Deliberately wrong sum reduction: reduced dimension is dropped (wrong shape)."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim)
