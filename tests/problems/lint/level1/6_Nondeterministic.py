"""Lint test problem (rule nondeterministic): the model counts its calls into the result."""
import torch
import torch.nn as nn

N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.calls += 1
        return torch.tanh(x) + self.calls


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
