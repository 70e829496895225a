"""SwiGLU gate silu(a) * b with a hand-written backward (plain PyTorch, runs anywhere).

Forward saves a and b (the inputs, no copies) and returns a * sigmoid(a) * b. Backward computes
sigmoid(a) once and writes both gradients from it, where autograd would keep silu(a) as a
separate tensor and run mul's and silu's backward one after the other:

    grad_b = grad * silu(a)
    grad_a = grad * b * sigmoid(a) * (1 + a * (1 - sigmoid(a)))
"""
import torch
import torch.nn as nn


class _SiluGateFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * torch.sigmoid(a) * b

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        s = torch.sigmoid(a)
        grad_b = grad * (a * s)
        grad_a = (grad * b) * (s * (1.0 + a * (1.0 - s)))
        return grad_a, grad_b


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _SiluGateFn.apply(a, b)
