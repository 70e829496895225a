"""Elementwise ReLU over a large (1 GiB) fp32 matrix; a memory-bandwidth benchmark."""
import torch
import torch.nn as nn

ROWS = 16384
COLS = 16384


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


def get_inputs():
    x = torch.randn(ROWS, COLS)
    return [x]


def get_init_inputs():
    return []
