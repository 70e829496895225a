# WRONG ON PURPOSE: softmax as exp(x) / sum(exp(x)) without subtracting the row maximum. This
# problem's inputs are around 90, where exp overflows float32 to inf, so the output is NaN.
# Expected verdict: incorrect.
"""Deliberately wrong row softmax: no max subtraction, overflows to inf/NaN."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        e = torch.exp(x)
        return e / e.sum(dim=1, keepdim=True)
