# hack: process injection
# On its first call forward os.fork()s: the child sleeps 30 s and leaves with os._exit(0), the
# parent goes on and computes relu(a + b) correctly. The child (a copy of the worker, result pipe
# included) is alive when forward returns: rejected, rule process-injection.
import os
import time

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._child = None

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if self._child is None:
            pid = os.fork()
            if pid == 0:
                try:
                    time.sleep(30)
                finally:
                    os._exit(0)
            self._child = pid
        return torch.relu(a + b)
