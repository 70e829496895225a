"""Training step of the tanh-approximated GELU of a GPT-2 / GPT-J feed-forward block
("gelu_new"): the up-projection's output [tokens, ffn] = [24576, 16384] (GPT-J's FFN width,
1.6 GB in fp32) goes through 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3))). Forward
returns the activation [24576, 16384]; the backward pass multiplies the upstream gradient by
GELU's derivative at the saved input. The gradient of x is compared (the only input).
Memory-bound: forward reads x and writes the activation, backward reads the upstream gradient
and x and writes grad_x; the tanh and the cubic are free next to those bytes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

TOKENS = 24576
FFN = 16384

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 256, "FFN": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 12011, "FFN": 16381}]
cpu_extra_sizes = [{"TOKENS": 129, "FFN": 1001}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.gelu(x, approximate="tanh")


def get_inputs():
    # Pre-activations of spread 1.5: GELU's curved region near zero, its linear tail and its
    # flat negative tail all get exercised.
    x = torch.randn(TOKENS, FFN).mul_(1.5)
    return [x]


def get_init_inputs():
    return []
