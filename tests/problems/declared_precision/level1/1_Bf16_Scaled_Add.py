"""a * b + c in bf16: the file declares the precision it is meant for, and keeps one fp8 input.

kforge evaluates it at bf16 unless --precision says otherwise: the fp32 inputs and the fp32
parameter are cast to bf16, the fp8 input keeps its type (the forward dequantises it).
"""
import torch
import torch.nn as nn

precision = "bf16"  # a tiny elementwise test problem for the declared-precision path

N = 4096


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(N) * 1.5)

    def forward(self, a: torch.Tensor, b_fp8: torch.Tensor) -> torch.Tensor:
        assert a.dtype == torch.bfloat16 and self.scale.dtype == torch.bfloat16, (a.dtype, self.scale.dtype)
        assert b_fp8.dtype == torch.float8_e4m3fn, b_fp8.dtype
        return a * self.scale + b_fp8.to(a.dtype)


def get_inputs():
    return [torch.randn(N), torch.randn(N).to(torch.float8_e4m3fn)]


def get_init_inputs():
    return []
