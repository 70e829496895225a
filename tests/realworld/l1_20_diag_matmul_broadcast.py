import torch
import torch.nn as nn


class ModelNew(nn.Module):
    """
    diag(a) @ B builds an N x N matrix that is almost entirely zeros and then runs a full
    O(N^3) GEMM on it. Multiplying row i of B by a[i] gives the same result in O(N*M):
    a simple broadcast multiply, no extra memory for the diagonal matrix.
    """

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, a: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        # a: (N,) -> (N, 1), broadcasts over the M columns of B
        return a.unsqueeze(1) * B


N = 4096
M = 4096


def get_inputs():
    a = torch.randn(N)
    B = torch.randn(N, M)
    return [a, B]


def get_init_inputs():
    return []
