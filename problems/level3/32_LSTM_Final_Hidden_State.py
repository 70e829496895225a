"""Two-layer LSTM (nn.LSTM, time-major) over a long sequence from a given initial (h0, c0); the
result is the final hidden state of every layer, h_n, shape (NUM_LAYERS, B, H)."""
import torch
import torch.nn as nn

# Sized so the GPU sets the time: at a batch of 32-64 each step's two cuDNN launches ran for a few
# microseconds and the host, queueing them, set the forward's time (lint rule `host-bound`;
# docs/benchmarks.md, session 24).
SEQ_LEN = 96
BATCH = 1536
INPUT_SIZE = 128
HIDDEN_SIZE = 1024
NUM_LAYERS = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"SEQ_LEN": 8, "BATCH": 2}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"SEQ_LEN": 157, "BATCH": 19}]
cpu_extra_sizes = [{"SEQ_LEN": 7, "BATCH": 3}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers)

    def forward(self, x: torch.Tensor, h0: torch.Tensor, c0: torch.Tensor) -> torch.Tensor:
        _, (h_n, _) = self.lstm(x, (h0, c0))
        return h_n


def get_inputs():
    x = torch.randn(SEQ_LEN, BATCH, INPUT_SIZE)
    h0 = torch.randn(NUM_LAYERS, BATCH, HIDDEN_SIZE) * 0.5
    c0 = torch.randn(NUM_LAYERS, BATCH, HIDDEN_SIZE) * 0.5
    return [x, h0, c0]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS]
