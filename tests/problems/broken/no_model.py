"""Broken test problem: has get_inputs and get_init_inputs but defines no Model class."""
import torch
import torch.nn as nn

N = 32


class Network(nn.Module):  # wrong name on purpose: the loader must look for `Model`
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
