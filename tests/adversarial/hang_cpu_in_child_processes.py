# hack: hang / CPU bomb
# The CPU bomb spread over child processes: each forward forks eight children that spin for 3 s
# and waits for them (asleep, using no CPU itself), so every one has ended before forward returns
# (no child alive after it to be caught as process injection) and the candidate's own process
# shows almost no CPU time. On a machine whose workers share the cores, the children slow every
# other worker's timing all the same. Run with --cpu-share 0.5: kforge counts the CPU time of the
# candidate's whole process tree (the children while they run, then in the time of the process
# that reaped them), sees more than its share and a quarter core busy over 3 s and kills it.
# runtime_error, "CPU cores busy".
# (Eight, not two: on a 2-core machine running other tests beside it, two children got about one
# core between them, no more than the share. And half a core, not one: with four busy processes
# beside it on two cores, the eight get about 8/12 of the two, under one and a quarter, and were
# judged correct.)
import os
import time

import torch
import torch.nn as nn

CHILDREN = 8
SPIN = 3.0  # [s] each child's, every forward


class ModelNew(nn.Module):
    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        children = []
        for _ in range(CHILDREN):
            pid = os.fork()
            if pid == 0:
                end = time.monotonic() + SPIN
                while time.monotonic() < end:
                    pass
                os._exit(0)
            children.append(pid)
        for pid in children:
            os.waitpid(pid, 0)
        return torch.relu(a + b)
