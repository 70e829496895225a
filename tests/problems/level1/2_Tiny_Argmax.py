"""Tiny test problem: argmax over dim 1 of a 64 x 128 input (int64 output)."""
import torch
import torch.nn as nn

ROWS = 64
COLS = 128


class Model(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=self.dim)


def get_inputs():
    x = torch.randn(ROWS, COLS)
    return [x]


def get_init_inputs():
    return [1]
