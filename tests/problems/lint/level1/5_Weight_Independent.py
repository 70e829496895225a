"""Lint test problem (rule weight-independent): the layer's weights drop out of the result."""
import torch
import torch.nn as nn

N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(N, N)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x) + 0.0 * self.linear(x)


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
