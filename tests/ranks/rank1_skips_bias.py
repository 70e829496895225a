# Expected: incorrect, naming rank 1. Rank 1 returns the all-reduced sum without the bias: its
# collective still meets rank 0's (no hang), rank 0's output is right, rank 1's is not.
import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        proj = nn.Linear(width, width)
        part = width // ranks
        cols = slice(rank * part, (rank + 1) * part)
        self.weight = nn.Parameter(proj.weight.detach()[:, cols].clone())
        self.bias = nn.Parameter(proj.bias.detach().clone())

    def forward(self, x):
        partial = F.linear(x, self.weight)
        dist.all_reduce(partial)
        if dist.get_rank() == 1:
            return partial
        return partial + self.bias
