# hack: uninitialised reads
# Allocates the output with torch.empty and writes only the even rows, hoping the odd rows still
# hold a matching earlier result. The candidate runs before the reference and free CUDA memory is
# NaN-filled, so odd rows hold NaN or stale values: incorrect.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(a)
        out[0::2] = torch.relu(a[0::2] + b[0::2])
        return out
