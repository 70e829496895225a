"""Three-layer LSTM (nn.LSTM, batch-first) run from a given initial (h0, c0); a linear classifier
reads the top layer's output at the last time step. Output (B, NUM_CLASSES).

A host-bound problem kept for study (bench/process_modes.py): level3/30 at its size before session
24, where cuDNN queues 819 launches of a few microseconds each and the host's speed at queueing
them, which differs from process to process on the H200 (7.2-10.4 ms for the same 3.8 ms of GPU
work), sets the forward's time. The suite's level3/30 runs at a batch where the GPU does."""
import torch
import torch.nn as nn

BATCH = 64
SEQ_LEN = 128
INPUT_SIZE = 256
HIDDEN_SIZE = 768
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
