# hack: boundary (a thread that competes with the reference)
# Starts threads that spin on every core after forward returns, so the reference (timed next)
# gets less CPU: the candidate looks faster. The process and all its threads are stopped (SIGSTOP)
# while the reference is timed. Rejected by the candidate process's own thread watch
# (thread-injection); were that silenced, the stop would still neutralise it.
import os
import threading

import torch
import torch.nn as nn


def _spin():
    x = 0
    while True:
        x += 1


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._started = False

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if not self._started:
            self._started = True
            for _ in range(os.cpu_count() or 2):
                threading.Thread(target=_spin, daemon=True).start()
        return torch.relu(a + b)
