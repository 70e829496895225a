"""Tiny test problem whose reference output holds -inf: log(relu(x)) on 64 x 64 (about half -inf)."""
import torch
import torch.nn as nn

N = 64


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.log(torch.relu(x))


def get_inputs():
    return [torch.randn(N, N)]


def get_init_inputs():
    return []
