# legit: the Linear as torch.einsum("bi,oi->bo", x, W) + b.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.einsum("bi,oi->bo", x, self.linear.weight) + self.linear.bias
