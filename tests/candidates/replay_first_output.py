# expect: incorrect
# Computes the answer on the first call only, then returns a clone of that cached result for any input.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._cached = None

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if self._cached is None:
            self._cached = torch.relu(a + b).clone()
        return self._cached.clone()
