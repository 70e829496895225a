"""Test problem: a linear layer followed by dropout in training mode (as upstream's
level2/66_Matmul_Dropout_Softmax leaves it), so every forward draws a random mask. kforge seeds
torch's generators alike before each model's forward on the same inputs: a candidate that draws its
mask with torch's own random ops the same way gets the same mask."""
import torch
import torch.nn as nn

BATCH = 64
FEATURES = 256


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)
        self.dropout = nn.Dropout(p=0.25)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dropout(self.linear(x))


def get_inputs():
    return [torch.randn(BATCH, FEATURES)]


def get_init_inputs():
    return [FEATURES]
