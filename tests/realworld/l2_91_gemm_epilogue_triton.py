"""
Linear + bias + Swish + tanh + GELU + Hardtanh.

The GEMM stays on cuBLAS (F.linear); the five elementwise ops after it are fused
into one Triton kernel, so the 4096 x 4096 activation makes a single round trip
through HBM instead of six.
"""
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 512}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
    ],
    key=["n_elements", "n_cols"],
)
@triton.jit
def fused_epilogue_kernel(y_ptr, bias_ptr, out_ptr, n_elements, n_cols,
                          BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + (offs % n_cols), mask=mask, other=0.0)
    v = y + b
    # swish
    v = v * tl.sigmoid(v)
    # tanh(v) = 2 * sigmoid(2v) - 1
    v = 2.0 * tl.sigmoid(2.0 * v) - 1.0
    # exact gelu
    v = 0.5 * v * (1.0 + tl.math.erf(v * 0.7071067811865476))
    # hardtanh(-0.5, 0.5)
    v = tl.minimum(tl.maximum(v, -0.5), 0.5)
    tl.store(out_ptr + offs, v, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.bias = nn.Parameter(torch.randn(out_features) * 0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.linear(x, self.linear.weight, self.linear.bias).contiguous()
        out = torch.empty_like(y)
        n_elements = y.numel()
        n_cols = y.shape[1]
        grid = lambda META: (triton.cdiv(n_elements, META["BLOCK_SIZE"]),)
        fused_epilogue_kernel[grid](y, self.bias, out, n_elements, n_cols)
        return out
