"""
Optimized C = A @ B.T

Analysis of the reference:
  torch.matmul(A, B.T) already dispatches to a single GEMM (the transpose is a view),
  but it goes through the generic matmul dispatch (shape checks, possible reshapes for
  batched inputs) every call.

Optimization:
  C = A @ B.T is exactly a bias-free linear layer with weight B (shape N x K).
  F.linear hands the transposed operand straight to the GEMM as a "TN" problem (no
  explicit transpose or copy of B) and skips the generic matmul dispatch, so we just
  call it. No custom kernel is needed: cuBLAS / MKL are already at roofline for
  these sizes, and a hand-written kernel would only be slower.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

M = 4096  # tokens
K = 2048  # input features
N = 8192  # output features


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        # A: (M, K), B: (N, K) -> (M, N)
        return F.linear(A, B)


def get_inputs():
    A = torch.randn(M, K) * K ** -0.5
    B = torch.randn(N, K)
    return [A, B]


def get_init_inputs():
    return []
