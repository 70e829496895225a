"""a + b over inputs of 2^46 fp32 elements each (256 TiB): more memory than any device or host
has, and more than a 47-bit address space can map, so the allocation fails on every machine
(overcommit or not). kforge must say the problem ran out of memory, not only echo the allocator.
"""
import torch
import torch.nn as nn

N = 1 << 46


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a + b


def get_inputs():
    return [torch.randn(N), torch.randn(N)]


def get_init_inputs():
    return []
