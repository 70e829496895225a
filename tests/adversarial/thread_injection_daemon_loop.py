# hack: thread injection
# __init__ starts a daemon thread that loops forever (0.05 s sleep per loop), the kind of
# background helper that could later touch the harness's tensors or clocks; forward is honest.
# The thread is alive when forward returns: rejected, rule thread-injection.
import threading
import time

import torch
import torch.nn as nn


class _Heartbeat:
    def __init__(self):
        self.beats = 0

    def run(self):
        while True:
            self.beats += 1
            time.sleep(0.05)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._heartbeat = _Heartbeat()
        threading.Thread(target=self._heartbeat.run, name="helper", daemon=True).start()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
