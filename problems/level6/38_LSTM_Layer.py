"""Training step of one large LSTM layer (nn.LSTM, batch-first, biases), as in big LSTM language
models: 512 sequences of 32 steps, input width 1024, hidden width 2048, zero initial state. x is
[batch, seq, 1024]; returns the output at every step, [batch, seq, 2048] (what a language-model
head reads); kforge drives backward with a random upstream gradient of that shape, i.e. a loss on
every step, so backpropagation through time runs over the whole sequence.
Compared: the output, the gradient of x and the gradients of the four LSTM parameters
(weight_ih [8192, 1024], weight_hh [8192, 2048], bias_ih and bias_hh [8192]).
Why it matters: an LSTM's training step is a chain of dependent steps forward and backward: per
step a [512, 2048] x [2048, 8192] recurrent GEMM and the gates' elementwise work, plus the input
GEMM and the weight gradients batched over all steps. Keeping W_hh on chip across steps, fusing
the gates into the GEMM's epilogue and overlapping the batched GEMMs with the recurrence is how
fast RNN training is done. (Sized so each step's GEMMs outweigh cuDNN's launches: the two-layer
[64, 64, 256] -> 512 LSTM this problem had before spent most of its step launching kernels, whose
host time differs from process to process; docs/benchmarks.md, session 22.)
Precision: fp32 (cuDNN's RNN GEMMs may use TF32, as PyTorch's default allows for cuDNN).
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 512
SEQ_LEN = 32
INPUT_SIZE = 1024
HIDDEN_SIZE = 2048

cpu_sizes = {"BATCH": 4, "SEQ_LEN": 12, "INPUT_SIZE": 32, "HIDDEN_SIZE": 48}
extra_sizes = [{"BATCH": 229, "SEQ_LEN": 27}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ_LEN": 7}]


class Model(nn.Module):
    def __init__(self, input_size: int, hidden_size: int):
        super().__init__()
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers=1, batch_first=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out, _ = self.lstm(x)
        return out


def get_inputs():
    x = torch.randn(BATCH, SEQ_LEN, INPUT_SIZE)
    return [x]


def get_init_inputs():
    return [INPUT_SIZE, HIDDEN_SIZE]
