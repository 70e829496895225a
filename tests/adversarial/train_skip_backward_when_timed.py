# hack: batch-and-skip
# A training candidate honest for its first 12 calls (the trials and the warm-up), then skipping
# the backward's weight product on every other call and returning the previous call's weight
# gradient, cutting its measured time. Every timed call's result (outputs and gradients) is
# rechecked against the reference's on the same fresh inputs: rejected, timing-recheck.
import torch
import torch.nn as nn

HONEST_CALLS = 12


class LinearTanh(torch.autograd.Function):
    calls = 0
    previous = None

    @staticmethod
    def forward(ctx, x, weight, bias):
        y = torch.tanh(torch.addmm(bias, x, weight.t()))
        ctx.save_for_backward(x, weight, y)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        LinearTanh.calls += 1
        x, weight, y = ctx.saved_tensors
        grad_pre = grad_y * (1 - y * y)
        skip = LinearTanh.calls > HONEST_CALLS and LinearTanh.calls % 2 == 1 and LinearTanh.previous is not None
        if not skip:
            LinearTanh.previous = grad_pre.t() @ x
        return grad_pre @ weight, LinearTanh.previous.clone(), grad_pre.sum(0)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearTanh.apply(x, self.linear.weight, self.linear.bias)
