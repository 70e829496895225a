# WRONG ON PURPOSE: the forward is the tanh-approximated GELU, but the backward uses the exact
# (erf) GELU's derivative, Phi(x) + x * phi(x). The two derivatives differ by up to 8.7e-4 (near
# x = -2), which times the upstream gradient is past fp32's tolerance on many elements.
# Expected verdict: incorrect.
"""Deliberately wrong tanh-GELU backward: the derivative of the exact erf GELU instead."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class _GeluTanhErfGradFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return F.gelu(x, approximate="tanh")

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        cdf = 0.5 * (1.0 + torch.erf(x * (1.0 / math.sqrt(2.0))))
        pdf = torch.exp(-0.5 * x * x) * (1.0 / math.sqrt(2.0 * math.pi))
        return grad * (cdf + x * pdf)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _GeluTanhErfGradFn.apply(x)
