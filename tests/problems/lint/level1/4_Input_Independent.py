"""Lint test problem (rule input-independent): the output is the bias broadcast, whatever the
input (a saturated activation after a huge negative shift)."""
import torch
import torch.nn as nn

N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(N))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x - 1e6) + self.bias


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
