"""Test problem for the adversarial corpus: relu(a + b) on two N x N fp32 inputs small enough that
both, and the output, fit in a GPU's L2 (1536 x 1536: 9 MiB per tensor, 27 MiB in all against the
H100's and H200's 50 MiB), so a call that found its inputs in L2 instead of HBM would show it;
256 x 256 on the CPU."""
import torch
import torch.nn as nn

N = 1536

cpu_sizes = {"N": 256}

# One past the benchmark size, so a kernel that assumes it is caught.
extra_sizes = [{"N": 1537}]
cpu_extra_sizes = [{"N": 257}]


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.relu(a + b)


def get_inputs():
    return [torch.randn(N, N), torch.randn(N, N)]


def get_init_inputs():
    return []
