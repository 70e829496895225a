"""Deep, narrow MLP: 24 hidden Linear+ReLU layers of width 512, then a 10-way output layer.

Weights use He (Kaiming) normal initialisation and zero biases, so the activations keep an O(1)
scale through the whole stack instead of shrinking layer after layer.
"""
import torch
import torch.nn as nn

BATCH = 8192
INPUT_SIZE = 784
HIDDEN_SIZE = 512
NUM_HIDDEN_LAYERS = 24
OUTPUT_SIZE = 10

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 32}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 3001}]
cpu_extra_sizes = [{"BATCH": 19}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_hidden_layers: int, output_size: int):
        super().__init__()
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

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.out(self.hidden(x))


def get_inputs():
    x = torch.randn(BATCH, INPUT_SIZE)
    return [x]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, NUM_HIDDEN_LAYERS, OUTPUT_SIZE]
