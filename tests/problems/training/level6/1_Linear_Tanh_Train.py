"""Test problem (training): a linear layer with bias followed by tanh, trained: kforge compares
the output, the input's gradient and the weight's and bias's gradients."""
import torch
import torch.nn as nn

mode = "train"

BATCH = 64
IN_FEATURES = 96
OUT_FEATURES = 80

cpu_sizes = {"BATCH": 64}
extra_sizes = [{"BATCH": 37}]
cpu_extra_sizes = [{"BATCH": 37}]


class Model(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.tanh(self.linear(x))


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES)]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES]
