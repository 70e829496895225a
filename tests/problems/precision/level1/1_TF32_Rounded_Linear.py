"""Test problem: an fp32 linear whose reference rounds both operands to TF32's 10 mantissa bits
first, as cuDNN's convolutions do by PyTorch's default on a GPU, so the reference itself errs by
about 2^-11 of its values. A candidate that computes in plain fp32 is more exact than the
reference and differs from it past fp32's tolerance; the fp64 check finds it the more exact of
the two. (In fp64, the precision check's run, nothing is rounded.)"""
import torch
import torch.nn as nn
import torch.nn.functional as F

ROWS = 512
FEATURES = 1024

cpu_sizes = {"ROWS": 512}
extra_sizes = [{"ROWS": 97}]
cpu_extra_sizes = [{"ROWS": 97}]


def tf32(t: torch.Tensor) -> torch.Tensor:
    """fp32 values rounded to 10 mantissa bits (to nearest); other dtypes as they are."""
    if t.dtype != torch.float32:
        return t
    bits = t.contiguous().view(torch.int32)
    return ((bits + 0x1000) & ~0x1FFF).view(torch.float32)


class Model(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.linear = nn.Linear(features, features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.linear(tf32(x), tf32(self.linear.weight), self.linear.bias)


def get_inputs():
    return [torch.randn(ROWS, FEATURES)]


def get_init_inputs():
    return [FEATURES]
