"""Shallow, wide MLP: two very wide hidden layers (Linear+ReLU) and a 1000-way output layer.

Flattened 32x32 RGB images (3072 features) go through 16384 and 4096 hidden units; the time is
spent in three large GEMMs whose weights (about 480 MB) are read once per call.
"""
import torch
import torch.nn as nn

BATCH = 768
INPUT_SIZE = 3072
HIDDEN_SIZE_1 = 16384
HIDDEN_SIZE_2 = 4096
OUTPUT_SIZE = 1000

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8, "HIDDEN_SIZE_1": 4096, "HIDDEN_SIZE_2": 2048}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 301}]
cpu_extra_sizes = [{"BATCH": 5}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size_1: int, hidden_size_2: int, output_size: int):
        super().__init__()
        self.fc1 = nn.Linear(input_size, hidden_size_1)
        self.fc2 = nn.Linear(hidden_size_1, hidden_size_2)
        self.fc3 = nn.Linear(hidden_size_2, output_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = torch.relu(self.fc1(x))
        x = torch.relu(self.fc2(x))
        return self.fc3(x)


def get_inputs():
    x = torch.randn(BATCH, INPUT_SIZE)
    return [x]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE_1, HIDDEN_SIZE_2, OUTPUT_SIZE]
