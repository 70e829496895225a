"""Lint test (multi-rank): rank 1's share of the output is near zero (its input shard is scaled
away before the collective's sum reaches it), so `near-zero` names rank 1; rank 0's is sound."""
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
        return total * (1e-9 if dist.get_rank() == 1 else 1.0)


def get_inputs(rank: int, world_size: int):
    return [torch.randn(ROWS, COLS)]


def get_init_inputs():
    return []
