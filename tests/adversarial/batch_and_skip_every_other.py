# hack: batch-and-skip
# Honest for its first 12 calls, then runs the GEMM only on every other call and returns the
# previous result on the others, halving its measured time. kforge compares each timed output
# with the reference's on fresh inputs: the skipped calls differ, rejected, rule timing-recheck.
import torch
import torch.nn as nn
import torch.nn.functional as F

HONEST_CALLS = 12


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self._calls = 0
        self._previous = None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self._calls += 1
        skip = self._calls > HONEST_CALLS and self._calls % 2 == 1 and self._previous is not None
        if not skip:
            self._previous = F.linear(x, self.linear.weight, self.linear.bias)
        return self._previous
