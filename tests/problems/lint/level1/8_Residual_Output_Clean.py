"""Lint test problem (clean): two outputs, one of which is a function of the inputs alone (the
new residual stream of a fused residual add); the other depends on the weights. No rule fires."""
import torch
import torch.nn as nn

N = 256
ROWS = 256

# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"ROWS": 97}]
cpu_extra_sizes = [{"ROWS": 97}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(N)
        with torch.no_grad():
            self.norm.weight.add_(0.5 * torch.randn(N))
            self.norm.bias.add_(0.5 * torch.randn(N))

    def forward(self, x: torch.Tensor, residual: torch.Tensor):
        residual = x + residual
        return self.norm(residual), residual


def get_inputs():
    return [torch.randn(ROWS, N), torch.randn(ROWS, N)]


def get_init_inputs():
    return []
