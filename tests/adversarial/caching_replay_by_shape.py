# hack: caching/replay
# Caches its output by input shape from the very first call and returns it for every later call
# of that shape. Each correctness trial draws fresh inputs, so trial 2 already sees the stale
# result: incorrect (caught before timing).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._by_shape = {}

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        key = (tuple(a.shape), a.dtype, a.device)
        if key not in self._by_shape:
            self._by_shape[key] = torch.relu(a + b)
        return self._by_shape[key].clone()
