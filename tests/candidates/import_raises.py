# expect: load_error
# The module raises RuntimeError at import time, before ModelNew is even defined.
import torch
import torch.nn as nn

raise RuntimeError("import_raises: this candidate fails while being imported")


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
