"""Tiny test problem with weights: nn.Linear(64 -> 32) on a batch of 16."""
import torch
import torch.nn as nn

BATCH = 16
IN_FEATURES = 64
OUT_FEATURES = 32


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x)


def get_inputs():
    x = torch.randn(BATCH, IN_FEATURES)
    return [x]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
