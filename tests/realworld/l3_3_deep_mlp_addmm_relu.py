"""
Deep narrow MLP, optimized.

The reference runs 24 x (Linear module call -> separate ReLU module call). Here every
hidden layer is one torch.addmm (GEMM + bias in one call) followed by an in-place
relu_ on the fresh GEMM output, and we skip nn.Sequential / module call overhead by
looping over the parameter list directly.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

BATCH = 8192
INPUT_SIZE = 784
HIDDEN_SIZE = 512
NUM_HIDDEN_LAYERS = 24
OUTPUT_SIZE = 10


class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_hidden_layers: int, output_size: int):
        super(ModelNew, self).__init__()
        layers = []
        prev = input_size
        for _ in range(num_hidden_layers):
            linear = nn.Linear(prev, hidden_size)
            nn.init.kaiming_normal_(linear.weight, nonlinearity="relu")
            nn.init.zeros_(linear.bias)
            layers += [linear, nn.ReLU()]
            prev = hidden_size
        self.hidden = nn.Sequential(*layers)
        self.out = nn.Linear(prev, output_size)
        # cache the Linear layers for the fast path
        self._linears = [m for m in self.hidden if isinstance(m, nn.Linear)]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x
        for lin in self._linears:
            h = torch.addmm(lin.bias, h, lin.weight.t()).relu_()
        return F.linear(h, self.out.weight, self.out.bias)


def get_inputs():
    x = torch.randn(BATCH, INPUT_SIZE)
    return [x]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, NUM_HIDDEN_LAYERS, OUTPUT_SIZE]
