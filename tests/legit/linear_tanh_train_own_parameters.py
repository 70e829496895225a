# legit: a training candidate that keeps its weight and bias as parameters of its own (not inside
# an nn.Linear), created in the reference's order and shapes, and accumulates the input gradient
# in row chunks (another summation order than the reference's).
import torch
import torch.nn as nn


class LinearTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        y = torch.tanh(torch.addmm(bias, x, weight.t()))
        ctx.save_for_backward(x, weight, y)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        x, weight, y = ctx.saved_tensors
        grad_pre = grad_y * (1 - y * y)
        grad_x = torch.cat([chunk @ weight for chunk in grad_pre.split(16)])
        return grad_x, grad_pre.t() @ x, grad_pre.sum(0)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        reference = nn.Linear(in_features, out_features)  # the same seeded initialisation
        self.weight = nn.Parameter(reference.weight.detach().clone())
        self.bias = nn.Parameter(reference.bias.detach().clone())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearTanh.apply(x, self.weight, self.bias)
