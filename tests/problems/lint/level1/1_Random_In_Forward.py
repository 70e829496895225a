"""Lint test problem (rule random-in-forward): dropout-like noise drawn inside forward."""
import torch
import torch.nn as nn

N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * (torch.rand_like(x) > 0.5)


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
