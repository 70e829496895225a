# hack: hang / memory bomb
# The same bomb spread over child processes: forward forks four children, each of which fills
# 768 MiB of host memory and holds it for two seconds, and waits for them, so every one has ended
# before forward returns (no child alive after it to be caught as process injection). Each child is
# smaller than the reference process is on a GPU, so a machine's OOM killer, choosing the largest
# process, would take the judge first; and a bound that reads only the candidate's own process
# sees none of it. Run with --host-memory 2 (3 GiB in all, so a machine without the bound is not
# put at risk): kforge counts the resident memory of the candidate's whole process tree, sees it
# pass 2 GiB and kills it. runtime_error, "resident host memory".
import os
import time

import torch
import torch.nn as nn

CHILDREN = 4
EACH = 768 << 20  # [bytes]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        children = []
        for _ in range(CHILDREN):
            pid = os.fork()
            if pid == 0:
                hoard = bytearray(EACH)
                for i in range(0, EACH, 4096):  # touched, so resident
                    hoard[i] = 1
                time.sleep(2)
                os._exit(0)
            children.append(pid)
        for pid in children:
            os.waitpid(pid, 0)
        return torch.relu(a + b)
