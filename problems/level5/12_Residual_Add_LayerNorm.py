"""Fused residual add + LayerNorm as between transformer sublayers (pre-norm): the sublayer
output x is added to the residual stream, and the sum is both returned (the new residual) and
normalised over the hidden dimension with a learned gain and bias, eps 1e-5. 49152 tokens
(a large batched prefill) of width 8192. Returns (normed, new_residual), each [tokens, 8192].
Precision: bf16. The sum is rounded to bf16 (it is stored as the residual) and that rounded sum
is what gets normalised, with the statistics in fp32; the normalised output is rounded to bf16.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

# bf16: activations and the residual stream are bf16 in serving; the kernel is memory-bound
# (four bf16 tensors of 805 MB cross HBM), so bf16 bytes set its speed of light.
precision = "bf16"

TOKENS = 49152
HIDDEN = 8192
EPS = 1e-5

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"TOKENS": 512}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"TOKENS": 16381}]
cpu_extra_sizes = [{"TOKENS": 333}]


class Model(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))
        self.bias = nn.Parameter(0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor, residual: torch.Tensor):
        residual = x + residual
        normed = F.layer_norm(residual, (residual.shape[-1],), self.weight, self.bias, self.eps)
        return normed, residual


def get_inputs():
    # The residual stream has grown across layers (scale 4, a mean offset per token); the new
    # sublayer output is unit scale.
    x = torch.randn(TOKENS, HIDDEN)
    residual = 4.0 * torch.randn(TOKENS, HIDDEN) + torch.randn(TOKENS, 1)
    return [x, residual]


def get_init_inputs():
    return [HIDDEN, EPS]
