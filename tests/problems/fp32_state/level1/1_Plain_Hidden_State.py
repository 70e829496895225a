"""Test problem: a model whose forward uses a tensor it keeps as a plain attribute (neither a
parameter nor a buffer), moved to the input's device inside forward, as upstream's
level3/33_VanillaRNN does with its hidden state. In fp64 the reference raises (an fp64 input
times an fp32 matrix): the fp64 check must be skipped, not blamed on the candidate."""
import torch
import torch.nn as nn

BATCH = 32
FEATURES = 128


class Model(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.linear = nn.Linear(features, features)
        self.state = torch.randn(features, features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.state = self.state.to(x.device)
        return torch.tanh(self.linear(x) @ self.state)


def get_inputs():
    return [torch.randn(BATCH, FEATURES)]


def get_init_inputs():
    return [FEATURES]
