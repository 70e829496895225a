"""Three-layer LSTM (nn.LSTM, batch-first) run from a given initial (h0, c0); a linear classifier
reads the top layer's output at the last time step. Output (B, NUM_CLASSES)."""
import torch
import torch.nn as nn

# Sized so the GPU sets the time: at a batch of 32-64 each step's two cuDNN launches ran for a few
# microseconds and the host, queueing them, set the forward's time (lint rule `host-bound`;
# docs/benchmarks.md, session 24).
BATCH = 1536
SEQ_LEN = 64
INPUT_SIZE = 256
HIDDEN_SIZE = 1024
NUM_LAYERS = 3
NUM_CLASSES = 96

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "SEQ_LEN": 8}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "SEQ_LEN": 97}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 7}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int, num_classes: int):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True, dropout=0.0)
        self.classifier = nn.Linear(hidden_size, num_classes)

    def forward(self, x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor) -> torch.Tensor:
        out, _ = self.lstm(x, (h0, c0))  # (B, T, H)
        return self.classifier(out[:, -1, :])


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, INPUT_SIZE)
    h0 = torch.randn(NUM_LAYERS, BATCH, HIDDEN_SIZE) * 0.5
    c0 = torch.randn(NUM_LAYERS, BATCH, HIDDEN_SIZE) * 0.5
    return [x, h0, c0]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS, NUM_CLASSES]
