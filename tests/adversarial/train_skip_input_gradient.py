# hack: skipped gradient
# A training candidate that computes the parameters' gradients but not the input's (the layer's
# most expensive product when the batch is large), as if it were the first layer of a network.
# kforge compares the gradient of every input the problem differentiates: incorrect.
import torch
import torch.nn as nn


class LinearTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        y = torch.tanh(torch.addmm(bias, x, weight.t()))
        ctx.save_for_backward(x, y)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        x, y = ctx.saved_tensors
        grad_pre = grad_y * (1 - y * y)
        return None, grad_pre.t() @ x, grad_pre.sum(0)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearTanh.apply(x, self.linear.weight, self.linear.bias)
