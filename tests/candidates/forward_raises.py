# expect: runtime_error
# The model loads fine but forward raises RuntimeError on every call.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        raise RuntimeError("forward_raises: this candidate fails in forward")
