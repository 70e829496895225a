# hack: boundary (GPU work left running beside the reference)
# After computing its result, starts a thread that keeps queueing large matrix products on a side
# stream, so the GPU is busy while the reference is timed and the reference looks slow. The
# process (thread included) is stopped while the reference is timed and the GPU is drained and
# probed before: what still ran is charged to the candidate. Its own thread watch rejects it
# first (thread-injection). GPU only.
import threading

import torch
import torch.nn as nn


def _burn(device):
    x = torch.randn(4096, 4096, device=device)
    side = torch.cuda.Stream(device=device)
    with torch.cuda.stream(side):
        while True:
            x = (x @ x).clamp_(-1, 1)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._started = False

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.relu(a + b)
        if not self._started:
            self._started = True
            threading.Thread(target=_burn, args=(a.device,), daemon=True).start()
        return out
