"""Test problem: row sums of 32,768 values with a standard deviation of 100, so the sums reach
tens of thousands while some lie near zero. fp32 sums in another order differ from the
reference's by up to a few tenths there: past atol 1e-4 on the sums near zero, yet fp32 rounding
at the output's scale (kforge's default fp32 comparison admits 2^-16 of the largest value)."""
import torch
import torch.nn as nn

ROWS = 64
COLUMNS = 32768


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=1)


def get_inputs():
    return [100.0 * torch.randn(ROWS, COLUMNS)]


def get_init_inputs():
    return []
