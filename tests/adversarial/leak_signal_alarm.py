# hack: leaking state into later jobs (a signal armed for later)
# Arms SIGALRM (default action: terminate) for 3 s from now and returns a correct result quickly.
# In one worker the alarm killed the process during the next candidate, which was stored as
# crashed. Its own process is killed (its group) when its evaluation ends: the next candidate is
# correct. Its own verdict depends on whether its evaluation outlasts 3 s: correct or crashed.
import signal

import torch
import torch.nn as nn

signal.alarm(3)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
