# hack: stale gradients
# A training candidate whose backward computes the gradients once and returns the first call's
# ever after: no backward work from the second call on. Every trial has fresh inputs and fresh
# grad_outputs, so the second trial's gradients differ: incorrect.
import torch
import torch.nn as nn


class LinearTanh(torch.autograd.Function):
    first = None

    @staticmethod
    def forward(ctx, x, weight, bias):
        y = torch.tanh(torch.addmm(bias, x, weight.t()))
        ctx.save_for_backward(x, weight, y)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        if LinearTanh.first is None:
            x, weight, y = ctx.saved_tensors
            grad_pre = grad_y * (1 - y * y)
            LinearTanh.first = (grad_pre @ weight, grad_pre.t() @ x, grad_pre.sum(0))
        return tuple(g.clone() for g in LinearTanh.first)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearTanh.apply(x, self.linear.weight, self.linear.bias)
