# expect: rejected
# Returns the right values, but computes them in place in input `a` (a.add_(b).relu_()) and returns `a`.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a.add_(b).relu_()
