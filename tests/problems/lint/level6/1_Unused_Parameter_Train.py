"""Lint test problem (training): a parameter no output depends on, so its gradient is all zeros
in every step: `near-zero` on "the gradient of parameter unused"."""
import torch
import torch.nn as nn

mode = "train"

N = 64
cpu_sizes = {"N": 64}
extra_sizes = [{"N": 37}]
cpu_extra_sizes = [{"N": 37}]


class Model(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features, features))
        self.unused = nn.Parameter(torch.randn(features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight


def get_inputs():
    return [torch.randn(N, 48)]


def get_init_inputs():
    return [48]
