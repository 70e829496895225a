"""Lint test problem (clean): a BatchNorm whose running variance is huge. In eval mode its output
would be its bias whatever the input (input-independent); the evaluation, like upstream, builds
the model in train mode, where BatchNorm uses the batch's own statistics. No rule fires."""
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
        self.linear = nn.Linear(N, N)
        self.bn = nn.BatchNorm1d(N)
        self.bn.running_var.fill_(1e12)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.bn(self.linear(x))


def get_inputs():
    return [torch.randn(ROWS, N)]


def get_init_inputs():
    return []
