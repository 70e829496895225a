"""Rectangular matrix product scaled by a constant: C = (A @ B) * scale, A is M x K, B is K x N, M != N != K."""
import torch
import torch.nn as nn

M = 4096
K = 3072
N = 5120

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"M": 512, "K": 768, "N": 1024}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"M": 1537, "N": 2551}]
cpu_extra_sizes = [{"M": 333, "N": 555}]


class Model(nn.Module):
    def __init__(self, scale: float):
        super().__init__()
        self.scale = scale

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        # Eager PyTorch writes the product, then reads and rewrites it for the scaling;
        # the scale belongs in the GEMM epilogue.
        return torch.matmul(A, B) * self.scale


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    # 1/sqrt(K), as in scaled dot-product scores: the scaled product has entries of order 1.
    return [K ** -0.5]
