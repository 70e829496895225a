# legit: a training candidate with a backward of its own (torch.autograd.Function): it saves the
# tanh output instead of the pre-activation and derives every gradient from it, as a fused kernel would.
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
        return grad_pre @ weight, grad_pre.t() @ x, grad_pre.sum(0)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearTanh.apply(x, self.linear.weight, self.linear.bias)
