"""Lint test problem (training): 60 dependent residual updates of a small tensor, so queueing a
step (about 500 launches through Python and autograd, fewer than the GPU's launch queue holds)
takes far longer than the GPU's few microseconds per kernel: `host-bound` on a GPU, by its ratio."""
import torch
import torch.nn as nn

mode = "train"

N = 256
STEPS = 60
cpu_sizes = {"N": 16, "STEPS": 4}
extra_sizes = [{"N": 129}]
cpu_extra_sizes = [{"N": 9}]


class Model(nn.Module):
    def __init__(self, features: int, steps: int):
        super().__init__()
        self.steps = steps
        self.scale = nn.Parameter(torch.rand(features) * 0.1 + 0.9)
        self.shift = nn.Parameter(torch.randn(features) * 0.01)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # Residual, so the output keeps its dependence on x (a plain tanh chain contracts to a fixed point).
        for _ in range(self.steps):
            x = x + 0.05 * torch.tanh(x * self.scale + self.shift)
        return x


def get_inputs():
    return [torch.randn(N, 256)]


def get_init_inputs():
    return [256, STEPS]
