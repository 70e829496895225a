"""Lint test problem (rule near-zero): every output value is within kforge's tolerance of 0, so
returning zeros would pass."""
import torch
import torch.nn as nn

N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(x) * 1e-6


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
