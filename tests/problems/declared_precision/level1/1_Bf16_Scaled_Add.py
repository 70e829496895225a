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
        # A power of two, so a * scale is exact in bf16 and the candidate's addcmul (one rounding)
        # matches this forward (two) bit for bit. With 1.5 a product in [4, 8) could round by half
        # a bf16 ulp (1/64), and where an fp8 input nearly cancels it (a = -2.72, b = 3.75: -0.3125
        # against -0.328125) that is beyond bf16's tolerance: 264 such (a, b) pairs for |a| < 6,
        # rare in a draw of 4096 but seen once on CI in a timed pair.
        self.scale = nn.Parameter(torch.ones(N) * 2.0)

    def forward(self, a: torch.Tensor, b_fp8: torch.Tensor) -> torch.Tensor:
        assert a.dtype == torch.bfloat16 and self.scale.dtype == torch.bfloat16, (a.dtype, self.scale.dtype)
        assert b_fp8.dtype == torch.float8_e4m3fn, b_fp8.dtype
        return a * self.scale + b_fp8.to(a.dtype)


def get_inputs():
    return [torch.randn(N), torch.randn(N).to(torch.float8_e4m3fn)]


def get_init_inputs():
    return []
