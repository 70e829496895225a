# hack: reused saved buffers
# A training candidate that keeps the tensors its first forward saved for backward and reuses
# them on every later call of the same shape: the forward's output and the backward's products
# come from the first call's activations, so nothing is recomputed. Fresh inputs in every trial:
# incorrect at the second trial.
import torch
import torch.nn as nn


class LinearTanh(torch.autograd.Function):
    saved = {}

    @staticmethod
    def forward(ctx, x, weight, bias):
        key = tuple(x.shape)
        if key not in LinearTanh.saved:
            LinearTanh.saved[key] = (x.detach().clone(), torch.tanh(torch.addmm(bias, x, weight.t())).detach())
        x0, y0 = LinearTanh.saved[key]
        ctx.save_for_backward(x0, weight, y0)
        return y0.clone()

    @staticmethod
    def backward(ctx, grad_y):
        x0, weight, y0 = ctx.saved_tensors
        grad_pre = grad_y * (1 - y0 * y0)
        return grad_pre @ weight, grad_pre.t() @ x0, grad_pre.sum(0)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearTanh.apply(x, self.linear.weight, self.linear.bias)
