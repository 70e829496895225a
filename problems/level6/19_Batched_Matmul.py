"""Training step of a batched matrix product of two activations, C = A @ B, with no parameters:
A [64, 512, 1024], B [64, 1024, 1024], C [64, 512, 1024]. Both operands are differentiated.
Backward runs from a random upstream gradient G of C's shape; compared are C and the gradients
of A (G B^T) and of B (A^T G), inputs 0 and 1.
Why it matters for training: when both operands are activations (attention's Q K^T and P V, a
batched bilinear or mixing layer), backward needs two more batched GEMMs of the forward's size,
one with each operand transposed, so a training step costs three times the forward.
"""
import torch
import torch.nn as nn

mode = "train"

BATCH = 64
M = 512
K = 1024
N = 1024

# kforge evaluates on the CPU at these sizes instead (KernelBench tooling ignores this).
cpu_sizes = {"BATCH": 8, "M": 128, "K": 256, "N": 192}
# Other sizes a correct candidate must handle (one more correctness trial each; KernelBench tooling ignores these).
extra_sizes = [{"BATCH": 37, "M": 509, "K": 1001, "N": 763}]
cpu_extra_sizes = [{"BATCH": 3, "M": 37, "K": 53, "N": 45}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


def get_inputs():
    # A scaled by K^-1/2 so C has unit scale.
    A = torch.randn(BATCH, M, K).mul_(K ** -0.5)
    B = torch.randn(BATCH, K, N)
    return [A, B]


def get_init_inputs():
    return []
