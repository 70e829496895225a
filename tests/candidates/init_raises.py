# expect: load_error
# ModelNew.__init__ raises ValueError, so the model can never be constructed.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        raise ValueError("init_raises: this candidate refuses to be constructed")

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)
