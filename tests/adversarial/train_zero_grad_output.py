# hack: grad_output mutation
# A training candidate whose backward zeroes the grad_output it was given, in place, after using
# it, hoping a harness that computes the reference's gradients afterwards, from the same tensor,
# gets zeros too. kforge sends grad_outputs as inputs (copies on each side) and checks every input
# for changes after the call: rejected, input-mutation.
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
        grads = (grad_pre @ weight, grad_pre.t() @ x, grad_pre.sum(0))
        grad_y.zero_()
        return grads


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearTanh.apply(x, self.linear.weight, self.linear.bias)
