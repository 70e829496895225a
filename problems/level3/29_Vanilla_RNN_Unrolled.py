"""Elman RNN unrolled over time in Python: h_t = tanh(W_x x_t + W_h h_{t-1} + b) for every step,
starting from a given initial state, then a linear readout of every step's hidden state.
Time-major input (T, B, I); output (T, B, O)."""
import torch
import torch.nn as nn

SEQ_LEN = 48
# Sized so the GPU sets the time: at a batch of 256 the H200 spent 3.9 ms of host time queueing against 4.2 ms of GPU work
# (lint rule `host-bound`; docs/benchmarks.md, session 25).
BATCH = 1024
INPUT_SIZE = 768
HIDDEN_SIZE = 1536
OUTPUT_SIZE = 512

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"SEQ_LEN": 8, "BATCH": 4}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"SEQ_LEN": 29, "BATCH": 131}]
cpu_extra_sizes = [{"SEQ_LEN": 5, "BATCH": 3}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, output_size: int):
        super().__init__()
        self.input_to_hidden = nn.Linear(input_size, hidden_size)
        self.hidden_to_hidden = nn.Linear(hidden_size, hidden_size, bias=False)
        self.readout = nn.Linear(hidden_size, output_size)

    def forward(self, x: torch.Tensor, h0: torch.Tensor) -> torch.Tensor:
        h = h0
        states = []
        for t in range(x.shape[0]):
            h = torch.tanh(self.input_to_hidden(x[t]) + self.hidden_to_hidden(h))
            states.append(h)
        return self.readout(torch.stack(states))


def get_inputs():
    x = torch.randn(SEQ_LEN, BATCH, INPUT_SIZE)
    h0 = torch.randn(BATCH, HIDDEN_SIZE) * 0.5
    return [x, h0]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, OUTPUT_SIZE]
