"""x * scale in bf16, where the scale buffer is a view (a squeezed [N, 1] tensor), as fp8
problems keep their row scales. Casting such a buffer by assigning `.data` leaves it a view of
an fp32 base, which torch.compile rejects; kforge's tools must cast it as the worker does.
"""
import torch
import torch.nn as nn

precision = "bf16"  # a tiny test problem for the precision cast of a view buffer

N = 256


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scale", (torch.rand(N, 1) + 0.5).squeeze(1))  # a view of its [N, 1] base

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.scale


def get_inputs():
    return [torch.randn(8, N)]


def get_init_inputs():
    return []
