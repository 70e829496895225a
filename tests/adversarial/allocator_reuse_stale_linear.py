# hack: allocator reuse
# Skips the GEMM: allocates an uninitialised (batch, out_features) tensor, hoping it lands on the
# block of the reference's previous output. The candidate runs first in each correctness trial and
# free CUDA memory is NaN-filled, so it holds NaN or an older trial's values: incorrect.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.empty(x.shape[0], self.linear.out_features, dtype=x.dtype, device=x.device)
