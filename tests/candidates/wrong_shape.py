# expect: incorrect
# Right values but only the first 128 rows are returned: shape (128, 256) instead of (256, 256).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.relu(a + b)
        return out[:128]
