# hack: timer patching
# At import, replaces torch.randn with a version that reseeds before every call, so the problem's
# get_inputs() returns the same "random" inputs every time; forward then computes once and replays
# that output forever (fresh inputs per trial and per timed pair no longer differ). kforge checks
# torch's functions against their originals after the import: rejected, rule patched-torch.
import torch
import torch.nn as nn

_real_randn = torch.randn


def _constant_randn(*args, **kwargs):
    torch.manual_seed(1234)
    return _real_randn(*args, **kwargs)


torch.randn = _constant_randn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._replay = None

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if self._replay is None:
            self._replay = torch.relu(a + b)
        return self._replay.clone()
