# legit: state kept between calls that never carries results: a scratch buffer for a + b, reused
# while shape, dtype and device stay the same and fully rewritten on every call; the returned
# tensor is new each call.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._scratch = None

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        s = self._scratch
        if s is None or s.shape != a.shape or s.dtype != a.dtype or s.device != a.device:
            s = self._scratch = torch.empty_like(a)
        torch.add(a, b, out=s)
        return torch.relu(s)
