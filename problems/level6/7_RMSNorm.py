"""Training step of a Llama-style RMSNorm, written as the Hugging Face Llama code writes it:
h = x * rsqrt(mean(x^2, dim=-1) + eps); out = weight * h, eps 1e-6, on x [tokens, hidden] =
[16384, 4096] (Llama-2-7B's width, 268 MB in fp32). Forward returns the normalised activations
[16384, 4096]. Compared: the gradient of x and of the weight [4096] (a reduction of
grad_out * h over all 16384 tokens). Eager autograd runs this as about five kernels forward and
a dozen backward (pow, mean, rsqrt, two multiplies, and their backward formulas, each through
HBM); a fused kernel reads x once forward, x and grad_out once backward, and writes grad_x and
per-block partial sums of the weight gradient. Two RMSNorms a layer make it a real share of a
training step's memory traffic.
"""
import torch
import torch.nn as nn

mode = "train"

TOKENS = 16384
HIDDEN = 4096
EPS = 1e-6

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 128, "HIDDEN": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 10007}]
cpu_extra_sizes = [{"TOKENS": 91}]


class Model(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.2 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mean_square = x.pow(2).mean(-1, keepdim=True)
        h = x * torch.rsqrt(mean_square + self.eps)
        return self.weight * h


def get_inputs():
    # Per-token magnitudes spread over two orders (exp of a normal), as residual streams are.
    scale = torch.randn(TOKENS, 1).exp_()
    x = torch.randn(TOKENS, HIDDEN).mul_(scale)
    return [x]


def get_init_inputs():
    return [HIDDEN, EPS]
