# Expected: correct. Each rank tries to reach a listener on the machine's loopback (the test opens
# one on port 47913: a stand-in for the references' group, whose gloo pairs listen there) and
# returns zeros if it could. The candidates live in a network namespace of their own, whose
# 127.0.0.1 is theirs alone, so the connection is refused and the honest result goes back.
import socket

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


def reached_the_machine():
    try:
        with socket.create_connection(("127.0.0.1", 47913), timeout=0.5):
            return True
    except OSError:
        return False


class ModelNew(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        proj = nn.Linear(width, width)
        part = width // ranks
        cols = slice(rank * part, (rank + 1) * part)
        self.weight = nn.Parameter(proj.weight.detach()[:, cols].clone())
        self.bias = nn.Parameter(proj.bias.detach().clone())
        self.outside = reached_the_machine()

    def forward(self, x):
        partial = F.linear(x, self.weight)
        dist.all_reduce(partial)
        out = partial + self.bias
        return torch.zeros_like(out) if self.outside else out
