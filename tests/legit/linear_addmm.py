# legit: the Linear as one torch.addmm(bias, x, weight.t()) (bias folded into the GEMM).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.addmm(self.linear.bias, x, self.linear.weight.t())
