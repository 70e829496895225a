"""Training step of the SwiGLU gate of a Llama-2-7B feed-forward block: given the gate and up
projections' outputs a, b [tokens, ffn] = [16384, 11008] (fp32, 721 MB each), forward returns
silu(a) * b [16384, 11008] (the input of the down projection). Backward: grad_b =
grad_out * silu(a) and grad_a = grad_out * b * silu'(a), with silu'(a) = sigmoid(a) *
(1 + a * (1 - sigmoid(a))). The gradients of both a and b are compared. Memory-bound and run
once per layer per step; eager PyTorch keeps silu(a) as a separate tensor and runs four more
elementwise kernels in backward, where one fused kernel reads a, b and the upstream gradient
once and writes the two gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

mode = "train"

TOKENS = 16384
FFN = 11008

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 256, "FFN": 688}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 8191, "FFN": 11003}]
cpu_extra_sizes = [{"TOKENS": 97, "FFN": 683}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return F.silu(a) * b


def get_inputs():
    # Gate pre-activations of spread 2 (SiLU's negative dip and its linear region), up
    # projections of unit spread.
    a = torch.randn(TOKENS, FFN).mul_(2.0)
    b = torch.randn(TOKENS, FFN)
    return [a, b]


def get_init_inputs():
    return []
