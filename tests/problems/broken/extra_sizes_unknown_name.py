"""Broken test problem: extra_sizes names a constant (M) that the file does not define."""
import torch
import torch.nn as nn

N = 256

extra_sizes = [{"M": 64}]


class Model(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []
