"""Test problem: relu(a + b) at a size no machine holds (4 TB per input), with cpu_sizes making
it 64 x 64 on the CPU. It evaluates only if kforge applies cpu_sizes before get_inputs()."""
import torch
import torch.nn as nn

N = 1_000_000

cpu_sizes = {"N": 64}


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)


def get_inputs():
    a = torch.randn(N, N)
    b = torch.randn(N, N)
    return [a, b]


def get_init_inputs():
    return []
