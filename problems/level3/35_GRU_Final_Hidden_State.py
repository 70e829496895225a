"""Three-layer GRU (nn.GRU, batch-first) started from a fixed initial state held as a buffer
(made once in __init__, broadcast over the batch); returns the final hidden state of every layer,
h_n, shape (NUM_LAYERS, B, H)."""
import torch
import torch.nn as nn

# Sized so the GPU sets the time: at a batch of 32-64 each step's two cuDNN launches ran for a few
# microseconds and the host, queueing them, set the forward's time (lint rule `host-bound`;
# docs/benchmarks.md, session 24).
BATCH = 2048
SEQ_LEN = 64
INPUT_SIZE = 80  # e.g. log-mel features
HIDDEN_SIZE = 1024
NUM_LAYERS = 3

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "SEQ_LEN": 10}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 19, "SEQ_LEN": 157}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 7}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int):
        super().__init__()
        self.gru = nn.GRU(input_size, hidden_size, num_layers, batch_first=True)
        self.register_buffer("h0", torch.randn(num_layers, 1, hidden_size) * 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h0 = self.h0.expand(-1, x.shape[0], -1).contiguous()
        _, h_n = self.gru(x, h0)
        return h_n


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, INPUT_SIZE)
    return [x]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS]
