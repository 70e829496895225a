"""Broken test problem: the file does not parse (missing colon after the def)."""
import torch
import torch.nn as nn

N = 32


class Model(nn.Module):
    def __init__(self)
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
