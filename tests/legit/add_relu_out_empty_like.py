# legit: torch.empty_like output, every element written by torch.add(a, b, out=out), then an
# in-place ReLU on it (uninitialised memory that is fully overwritten is fine).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(a)
        torch.add(a, b, out=out)
        return out.relu_()
