"""Sum over a dim computed as a product with a ones vector (plain PyTorch).

The product accumulates in float64 and is rounded to the input dtype once: a float32 dot product
in another order than torch.sum's differs from it by up to ~2e-4 on rows whose sum is near zero,
beyond the fp32 tolerance (1e-4), so a float32 version fails on some seeds.
"""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        moved = x.movedim(self.dim, -1).to(torch.float64)
        ones = torch.ones(moved.shape[-1], 1, dtype=torch.float64, device=x.device)
        out = torch.matmul(moved, ones)  # (..., 1)
        return out.movedim(-1, self.dim).to(x.dtype)
