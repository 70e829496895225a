# hack: caching/replay
# Honest for its first 12 calls, so it passes the 5 correctness trials, then returns the last
# output it computed, whatever the inputs. Every timed pair has fresh inputs and kforge compares
# the candidate's timed output with the reference's: rejected, rule timing-recheck.
import torch
import torch.nn as nn

HONEST_CALLS = 12


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self._calls = 0
        self._last = None

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        self._calls += 1
        if self._calls <= HONEST_CALLS or self._last is None:
            self._last = torch.relu(a + b)
        return self._last
