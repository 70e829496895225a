# WRONG ON PURPOSE: the weight gradient is sum_rows(grad) alone; it forgets to multiply by the
# normalised input h = x * rsqrt(mean(x^2) + eps), so grad_w is wrong everywhere (grad_x is right).
# Expected verdict: incorrect.
"""Deliberately wrong RMSNorm backward: weight gradient without the normalised input."""
import torch
import torch.nn as nn


class _RMSNormNoHFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        r = torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
        ctx.save_for_backward(x, weight, r)
        return weight * (x * r)

    @staticmethod
    def backward(ctx, grad):
        x, weight, r = ctx.saved_tensors
        hidden = x.shape[-1]
        gh = grad * weight
        dot = (gh * x).sum(-1, keepdim=True)
        grad_x = gh * r - x * (dot * r.pow(3) / hidden)
        grad_w = grad.reshape(-1, hidden).sum(0)  # the bug: should be (grad * x * r) summed
        return grad_x, grad_w, None


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _RMSNormNoHFn.apply(x, self.weight, self.eps)
