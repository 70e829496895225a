# Expected: runtime_error, naming rank 1, in seconds (not at the group's timeout). Rank 1 raises
# before its all-reduce, so rank 0's candidate waits in the collective for a peer that never
# comes; the judge ends rank 1's candidate process, which breaks rank 0's wait at once.
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
            raise RuntimeError("rank 1 gives up before its all-reduce")
        partial = F.linear(x, self.weight)
        dist.all_reduce(partial)
        return partial + self.bias
