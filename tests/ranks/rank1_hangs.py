# Expected: timeout at the job's limit, naming rank 1 (or ranks 0 and 1, when rank 0's worker ran
# out of time too, waiting for rank 1 in its all-reduce): rank 1 sleeps in its forward, before
# its all-reduce. Nothing waits past the limit: both ranks' workers are ended with the job.
import time

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
            time.sleep(3600)
        partial = F.linear(x, self.weight)
        dist.all_reduce(partial)
        return partial + self.bias
