# hack: boundary (work after the timed call)
# forward returns an empty tensor at once and leaves relu(a + b) to a replaced threading.enumerate,
# which kforge's thread watch calls after forward returned and before the outputs were read: the
# work would run after the timed window (8x "faster" on the CPU before the fix). A timed call's
# outputs are now placed and read at its timed frame, the process stopped there: the timed
# outputs are garbage and the recheck rejects them (the trials, untimed, pass).
import threading

import torch
import torch.nn as nn

_pending = []
_enumerate = threading.enumerate


def _finish_then_enumerate():
    while _pending:
        out, a, b = _pending.pop()
        torch.add(a, b, out=out)
        out.relu_()
    return _enumerate()


threading.enumerate = _finish_then_enumerate


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(a)
        _pending.append((out, a, b))
        return out
