# Expected: rejected (timing-recheck), naming rank 1. Honest through the correctness trials and the
# extra size (its first 8 calls); after them rank 1 leaves out the bias, still meeting rank 0 in its
# all-reduce. Only rank 1's recheck fails, after a batch of timed pairs: before session 35 rank 1's
# worker then asked the control group whether any rank failed while rank 0's asked for the batch's
# slowest times, gloo aborted rank 1's worker twice, and the job ended "the reference process died
# twice" with nothing stored. The ranks now agree on each batch before comparing its times.
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
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        partial = F.linear(x, self.weight)
        dist.all_reduce(partial)
        if dist.get_rank() == 1 and self.calls > 8:
            return partial
        return partial + self.bias
