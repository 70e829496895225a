"""Test problem: a softmax over 100,000 columns of inputs with a standard deviation of 0.3, whose
outputs all lie near 1e-5 (under 4e-5), so the fp32 tolerance (atol 1e-4) accepts values that are
wrong by their own size. The fp64 check finds them."""
import torch
import torch.nn as nn

ROWS = 4
COLUMNS = 100000


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=1)


def get_inputs():
    return [0.3 * torch.randn(ROWS, COLUMNS)]


def get_init_inputs():
    return []
