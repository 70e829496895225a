# hack: killing kforge (its parent)
# os.kill(os.getppid(), SIGKILL) at import: in one worker this ended kforge itself (exit 137).
# The parent is now the zygote, and signals to it, the reference process and kforge are denied
# (Landlock's signal scope, else the seccomp filter): the call fails with PermissionError, which
# this file ignores, and its result is right: correct. kforge survives to judge it.
import os
import signal

import torch
import torch.nn as nn

for target in (os.getppid(), -os.getpgid(os.getppid())):
    try:
        os.kill(target, signal.SIGKILL)
    except (PermissionError, ProcessLookupError):
        pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
