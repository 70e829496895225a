"""Sequence tagger: a two-layer bidirectional LSTM (nn.LSTM, batch-first) whose initial states are
learned parameters broadcast over the batch, followed by a linear layer giving per-token tag
scores from the concatenated forward and backward outputs. Output (B, T, NUM_TAGS)."""
import torch
import torch.nn as nn

# Sized so the GPU sets the time: at a batch of 32-64 each step's two cuDNN launches ran for a few
# microseconds and the host, queueing them, set the forward's time (lint rule `host-bound`;
# docs/benchmarks.md, session 24).
BATCH = 1024
SEQ_LEN = 48
INPUT_SIZE = 300  # word-vector width
HIDDEN_SIZE = 1024
NUM_LAYERS = 2
NUM_TAGS = 47

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "SEQ_LEN": 12}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "SEQ_LEN": 111}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 9}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int, num_tags: int):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True, bidirectional=True)
        self.h0 = nn.Parameter(torch.randn(2 * num_layers, 1, hidden_size) * 0.1)
        self.c0 = nn.Parameter(torch.randn(2 * num_layers, 1, hidden_size) * 0.1)
        self.tagger = nn.Linear(2 * hidden_size, num_tags)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b = x.shape[0]
        h0 = self.h0.expand(-1, b, -1).contiguous()
        c0 = self.c0.expand(-1, b, -1).contiguous()
        out, _ = self.lstm(x, (h0, c0))  # (B, T, 2H)
        return self.tagger(out)


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, INPUT_SIZE)
    return [x]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS, NUM_TAGS]
