"""Training step of the ReLU in a ReLU feed-forward block (OPT, T5): the up-projection's output
[tokens, ffn] = [16384, 28672] (OPT-30B's FFN width; 1.9 GB in fp32) goes through ReLU.
Forward returns relu(x) [16384, 28672]; the backward pass turns the upstream gradient into
grad_x = grad_out * (x > 0). The gradient of x is compared (the only input). A memory-bound
pair of passes: the backward reads the upstream gradient and the saved activation (or its
sign) and writes a gradient as large as the activation, once per FFN per layer per step, so
its bytes, not its arithmetic, set its speed.
"""
import torch
import torch.nn as nn

mode = "train"

TOKENS = 16384
FFN = 28672

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 256, "FFN": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 9973, "FFN": 28669}]
cpu_extra_sizes = [{"TOKENS": 131, "FFN": 1003}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


def get_inputs():
    # Pre-activations with a per-channel bias shift, so the fraction of live units differs from
    # channel to channel (about a third to two thirds of them pass).
    x = torch.randn(TOKENS, FFN) + 0.5 * torch.randn(1, FFN)
    return [x]


def get_init_inputs():
    return []
