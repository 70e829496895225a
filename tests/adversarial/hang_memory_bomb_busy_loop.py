# hack: hang / memory bomb
# forward never returns: it spins in `while True: pass`, holding the worker (and its device).
# kforge kills the worker when --timeout runs out: timeout.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        while True:
            pass
