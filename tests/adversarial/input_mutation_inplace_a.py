# hack: input mutation
# Saves an allocation and a pass by computing relu(a + b) in place in input `a` and returning it:
# the values are right, but kforge compares every input with its untouched original after the
# call, sees `a` changed (the reference leaves it alone) and rejects it with rule input-mutation.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return a.add_(b).relu_()
