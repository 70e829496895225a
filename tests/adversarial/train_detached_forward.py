# hack: skipped gradient
# A training candidate whose forward runs without autograd (its output detached), so no backward
# exists to run: a forward-only kernel offered for a training step. kforge's step finds no output
# that requires grad and says so: runtime_error.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with torch.no_grad():
            return torch.tanh(self.linear(x))
