# legit: the Linear through F.linear with the module's own nn.Linear parameters (created in the
# same order as the reference's, so equal under the shared seed).
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(x, self.linear.weight, self.linear.bias)
