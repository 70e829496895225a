# expect: load_error
# The module does not parse (unbalanced parenthesis in forward), so it cannot be imported.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu((a + b)
