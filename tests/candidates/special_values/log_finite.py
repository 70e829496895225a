# expect: incorrect
# Replaces the reference's -inf by a large finite value (log of a tiny epsilon).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log(x.clamp_min(1e-30))
