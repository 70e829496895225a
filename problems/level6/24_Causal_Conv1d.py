"""Training step of the short causal depthwise 1D convolution of a Mamba block (also Hyena and
other SSM / long-convolution layers): per channel, out[t] = bias + sum_k w[k] * x[t - 3 + k] over
a 4-tap kernel with zeros before the sequence start, computed as Mamba's reference does: Conv1d
with groups = channels and padding 3 on both sides, then the output sliced back to the first L
positions. Mamba-2.8B's inner width 5120, 16 sequences of 2048 tokens.
x [16, 5120, 2048] (channels before time), weight [5120, 1, 4], bias [5120].
Returns [16, 5120, 2048].
Backward runs from a random upstream gradient of the output's shape; compared are the output,
the gradient of x (input 0) and the gradients of the weight and bias.
Why it matters for training: the causal conv is pure memory traffic (4 taps per element), yet
the unfused forward writes 3 extra positions per row to throw them away and the backward pads
the gradient back, runs the transposed conv and reduces the weight gradient over batch and
time; Mamba ships a dedicated causal_conv1d kernel, forward and backward, for this reason.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 16
CHANNELS = 5120
SEQ = 2048
KERNEL_SIZE = 4

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 2, "CHANNELS": 256, "SEQ": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 7, "SEQ": 3001}]
cpu_extra_sizes = [{"BATCH": 3, "SEQ": 333}]


class Model(nn.Module):
    def __init__(self, channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, kernel_size, groups=channels, padding=kernel_size - 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)[..., :x.shape[-1]]


def get_inputs():
    x = torch.randn(BATCH, CHANNELS, SEQ)
    return [x]


def get_init_inputs():
    return [CHANNELS, KERNEL_SIZE]
