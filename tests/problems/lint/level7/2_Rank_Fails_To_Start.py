"""Lint test (multi-rank): rank 1's get_inputs raises, so the problem is a `load` finding that names
rank 1, and rank 0 is not left waiting in its collective."""
import torch
import torch.distributed as dist
import torch.nn as nn

world_size = 2

ROWS = 64
COLS = 32

cpu_sizes = {"ROWS": 64}
extra_sizes = [{"ROWS": 37}]
cpu_extra_sizes = [{"ROWS": 37}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        total = x.clone()
        dist.all_reduce(total)
        return total


def get_inputs(rank: int, world_size: int):
    if rank == 1:
        raise ValueError("rank 1 has no shard")
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
