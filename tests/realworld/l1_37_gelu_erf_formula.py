"""
Exact GELU, optimized.

GELU(x) = 0.5 * x * (1 + erf(x / sqrt(2)))

We write the formula out with in-place ops: the only new allocation is the erf
output, and the remaining scalar add / multiplies run in place on that fresh
tensor. (In-place on the *input* would be wrong: the caller still owns it.)
"""
import math

import torch
import torch.nn as nn

BATCH = 1280
TOKENS = 197  # 14 x 14 patches + class token
HIDDEN = 3072


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.inv_sqrt2 = 1.0 / math.sqrt(2.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        cdf = torch.erf(x * self.inv_sqrt2)  # new tensor, safe to modify in place
        cdf.add_(1.0).mul_(0.5)
        return cdf.mul_(x)


def get_inputs():
    x = torch.randn(BATCH, TOKENS, HIDDEN) * 1.5
    return [x]


def get_init_inputs():
    return []
