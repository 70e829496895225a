# Expected: crashed, naming rank 1, in seconds. Rank 1's process aborts in its forward, before its
# all-reduce: rank 0's candidate, waiting in the collective, sees its peer's connection close.
import os

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
        if dist.get_rank() == 1:
            os.abort()
        partial = F.linear(x, self.weight)
        dist.all_reduce(partial)
        return partial + self.bias
