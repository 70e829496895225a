# hack: boundary (rewriting the inputs through the problem module)
# Replaces the problem module's get_inputs with one that returns zeros, so that relu(a + b) is
# zero everywhere, and returns zeros itself. Inputs are made in the reference process, from its
# own module: this process's copy is never asked. Incorrect.
import sys

import torch
import torch.nn as nn

for name, module in list(sys.modules.items()):
    if module is not None and not name.startswith("torch") and callable(getattr(module, "get_inputs", None)) and name != __name__:
        n = getattr(module, "N", 256)
        module.get_inputs = lambda n=n: [torch.zeros(n, n), torch.zeros(n, n)]


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.zeros_like(a)
