"""Tiny test problem: relu(a + b) on two 256 x 256 inputs."""
import torch
import torch.nn as nn

N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)


def get_inputs():
    a = torch.randn(N, N)
    b = torch.randn(N, N)
    return [a, b]


def get_init_inputs():
    return []
