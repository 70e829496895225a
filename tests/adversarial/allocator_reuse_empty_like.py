# hack: allocator reuse
# Computes nothing: returns torch.empty_like(a), hoping the allocator hands back a block that still
# holds a correct result from an earlier call. The candidate runs before the reference in every
# trial and kforge fills free CUDA memory with NaN first, so the values are stale or NaN: incorrect.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.empty_like(a)
