"""Lint test problem (rule dtype-in-file): the inputs choose their floating type."""
import torch
import torch.nn as nn

N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x.float())


def get_inputs():
    return [torch.randn(N, N, dtype=torch.float16)]


def get_init_inputs():
    return []
