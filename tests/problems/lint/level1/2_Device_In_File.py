"""Lint test problem (rule device-in-file): the inputs choose their device."""
import torch
import torch.nn as nn

N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(x)


def get_inputs():
    return [torch.randn(N, N, device="cpu")]


def get_init_inputs():
    return []
