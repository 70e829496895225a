"""Two-layer bidirectional GRU (nn.GRU, batch-first) from a given initial state; returns the
concatenated forward/backward outputs of the top layer at every step, shape (B, T, 2H)."""
import torch
import torch.nn as nn

# Sized so the GPU sets the time: at a batch of 32-64 each step's two cuDNN launches ran for a few
# microseconds and the host, queueing them, set the forward's time (lint rule `host-bound`;
# docs/benchmarks.md, session 24).
BATCH = 1536
SEQ_LEN = 48
INPUT_SIZE = 256
HIDDEN_SIZE = 1024
NUM_LAYERS = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 12}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "SEQ_LEN": 131}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 9}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int):
        super().__init__()
        self.gru = nn.GRU(input_size, hidden_size, num_layers, batch_first=True, bidirectional=True)

    def forward(self, x: torch.Tensor, h0: torch.Tensor) -> torch.Tensor:
        out, _ = self.gru(x, h0)
        return out


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, INPUT_SIZE)
    h0 = torch.randn(2 * NUM_LAYERS, BATCH, HIDDEN_SIZE) * 0.5
    return [x, h0]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS]
