"""
Cumulative product over the time dimension (dim=1) of decay factors near 1.

Numerical considerations:
  * A product of 1024 factors in float32 accumulates rounding error at every step,
    so we accumulate in float64 for numerical stability.
  * A log-space formulation (exp(cumsum(log(x)))) turns the scan into a cumsum,
    but log(x) for x ~ 1 +- 0.02 loses relative precision and the exp at the end
    amplifies it, so we keep the direct product.
"""
import torch
import torch.nn as nn

BATCH = 64
TIME = 1024
CHANNELS = 10240


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x64 = x.to(torch.float64)
        out = torch.cumprod(x64, dim=self.dim)
        return out


def get_inputs():
    x = torch.randn(BATCH, TIME, CHANNELS).mul_(0.02).add_(1.0)
    return [x]


def get_init_inputs():
    return [1]
