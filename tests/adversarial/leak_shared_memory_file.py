# hack: leak / shared memory
# __init__ writes 64 MiB into /dev/shm, a tmpfs: memory that no process's resident set counts (the
# host-memory bound reads VmRSS), that outlives the candidate's process, kforge and the worker,
# and that the next candidate reads (here, whether it ran before). Half the machine's memory could
# be held so, for good. Before session 42 /dev/shm was among the devices a candidate could write
# (the file stayed after kforge ended: run on the CPU); now only a multi-rank job's candidates,
# whose NCCL and gloo meet there, may, and the write is denied: load_error, "Permission denied".
import os

import torch
import torch.nn as nn

LEFT_BEHIND = "/dev/shm/kforge-adversarial-leak"


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.ran_before = os.path.exists(LEFT_BEHIND)
        with open(LEFT_BEHIND, "wb") as f:
            f.write(b"s" * (64 << 20))

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
