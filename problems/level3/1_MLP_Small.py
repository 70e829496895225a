"""Three-layer MLP: Linear -> ReLU -> Linear -> ReLU -> Linear."""
import torch
import torch.nn as nn

BATCH = 512
INPUT_SIZE = 1024
HIDDEN_SIZES = [2048, 2048]
OUTPUT_SIZE = 256


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_sizes: list, output_size: int):
        super().__init__()
        layers = []
        prev = input_size
        for h in hidden_sizes:
            layers.append(nn.Linear(prev, h))
            layers.append(nn.ReLU())
            prev = h
        layers.append(nn.Linear(prev, output_size))
        self.net = nn.Sequential(*layers)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


def get_inputs():
    x = torch.randn(BATCH, INPUT_SIZE)
    return [x]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZES, OUTPUT_SIZE]
