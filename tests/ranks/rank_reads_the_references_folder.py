# Expected: correct. Each rank looks for the references' side of its job in the folders above its
# own scratch folder (the job's meeting folder lies in the temp root, its `references` part the
# workers' alone) and returns zeros if it can list anything of it. Landlock confines a candidate's reads
# to its own folders, so it finds nothing and the honest result goes back.
import glob
import os
import tempfile

import torch
import torch.distributed as dist
import torch.nn as nn
import torch.nn.functional as F


def sees_the_references():
    # The meeting folder lies in the temp root, somewhere above this process's own scratch folder.
    here = os.path.abspath(tempfile.gettempdir())
    while True:
        for folder in glob.glob(os.path.join(here, "kforge-*", "references")):
            try:
                if os.listdir(folder):
                    return True
            except OSError:
                pass
        if os.path.dirname(here) == here:
            return False
        here = os.path.dirname(here)


class ModelNew(nn.Module):
    def __init__(self, width: int):
        super().__init__()
        rank, ranks = dist.get_rank(), dist.get_world_size()
        proj = nn.Linear(width, width)
        part = width // ranks
        cols = slice(rank * part, (rank + 1) * part)
        self.weight = nn.Parameter(proj.weight.detach()[:, cols].clone())
        self.bias = nn.Parameter(proj.bias.detach().clone())
        self.saw = sees_the_references()

    def forward(self, x):
        partial = F.linear(x, self.weight)
        dist.all_reduce(partial)
        out = partial + self.bias
        return torch.zeros_like(out) if self.saw else out
