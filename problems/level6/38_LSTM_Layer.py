"""Training step of a two-layer LSTM (nn.LSTM, batch-first, biases, no dropout) over 64 sequences
of 64 steps: input width 256, hidden width 512, zero initial state. x is [batch, seq, 256];
returns the top layer's output at every step, [batch, seq, 512] (what a tagger or language-model
head reads); kforge drives backward with a random upstream gradient of that shape, i.e. a loss on
every step, so backpropagation through time runs over the whole sequence.
Compared: the output, the gradient of x and the gradients of the eight LSTM parameters
(weight_ih, weight_hh, bias_ih, bias_hh of each layer).
Why it matters: an LSTM's training step is a chain of small dependent steps forward and backward
(cuDNN issues kernels per step and layer), so it is latency- and launch-bound; a persistent
kernel keeping W_hh on chip across steps, and batching the input GEMMs and weight gradients over
all steps, is how fast RNN training is done.
Precision: fp32 (cuDNN's RNN GEMMs may use TF32, as PyTorch's default allows for cuDNN).
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 64
SEQ_LEN = 64
INPUT_SIZE = 256
HIDDEN_SIZE = 512
NUM_LAYERS = 2

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 4, "SEQ_LEN": 12, "INPUT_SIZE": 32, "HIDDEN_SIZE": 48}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 29, "SEQ_LEN": 53}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 7}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, num_layers: int):
        super().__init__()
        # PyTorch's default initialisation: uniform in +-1/sqrt(hidden).
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True, dropout=0.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.lstm(x)
        return out


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, INPUT_SIZE)
    return [x]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE, NUM_LAYERS]
