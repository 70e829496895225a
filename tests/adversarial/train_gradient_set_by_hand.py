# hack: stale gradients
# A training candidate that writes its parameters' .grad itself in forward (zeros) and uses them
# only through detached copies, so its backward computes the input's gradient alone: it hopes a
# harness reads .grad without checking what wrote it. kforge clears every trainable parameter's
# .grad before each step and compares what is there after the backward: incorrect.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        w, b = self.linear.weight, self.linear.bias
        # The parameters enter only through detached copies, so autograd leaves their .grad alone.
        y = torch.tanh(torch.addmm(b.detach(), x, w.detach().t()))
        w.grad = torch.zeros_like(w)
        b.grad = torch.zeros_like(b)
        return y
