# expect: incorrect
# Returns a nested Python list of floats (tensor.tolist()) instead of a tensor; values are right.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor):
        return torch.relu(a + b).tolist()
