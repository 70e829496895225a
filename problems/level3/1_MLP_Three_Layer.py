"""Three-layer MLP: Linear -> ReLU -> Linear -> ReLU -> Linear."""
import torch
import torch.nn as nn

BATCH = 4096
INPUT_SIZE = 2048
HIDDEN_SIZE = 4096
OUTPUT_SIZE = 1024
# Sized so the GPU, not the host's kernel launches, sets the time (about 0.24 TFLOP in fp32).
# The CPU keeps the small sizes.
cpu_sizes = {"BATCH": 512, "INPUT_SIZE": 1024, "HIDDEN_SIZE": 2048, "OUTPUT_SIZE": 256}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 1531}]
cpu_extra_sizes = [{"BATCH": 77}]


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
    return [INPUT_SIZE, [HIDDEN_SIZE, HIDDEN_SIZE], OUTPUT_SIZE]
