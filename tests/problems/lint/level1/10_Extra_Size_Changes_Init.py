"""Lint test problem: its extra size changes a constant the model's weights are built from, so the
model built once at the benchmark size cannot take the inputs made at it (the evaluation sets an
extra size for get_inputs() only). Fires extra-sizes."""
import torch
import torch.nn as nn

FEATURES = 256
ROWS = 128

extra_sizes = [{"FEATURES": 97}]
cpu_extra_sizes = [{"ROWS": 128}]


class Model(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.linear = nn.Linear(features, features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.linear(x))


def get_inputs():
    return [torch.randn(ROWS, FEATURES)]


def get_init_inputs():
    return [FEATURES]
