# hack: timer patching
# At import, replaces torch.cuda.synchronize with a no-op, so a Python timer that synchronizes
# before reading the clock stops waiting for the GPU (the forward itself is honest). kforge
# checks torch's functions against their originals after the import: rejected, rule patched-torch.
import torch
import torch.nn as nn


def _no_sync(device=None):
    return None


torch.cuda.synchronize = _no_sync


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
