# expect: incorrect
# relu(a + b) with one of its 65,536 elements, the one nearest 0.5, moved by twice the tolerance
# (atol 1e-4 + rtol 1e-4 * |value|): the comparison must find a single wrong element among many
# right ones (on a GPU, the one-pass comparison's count of pairs out of tolerance,
# worker/fused_compare.hpp).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.relu(a + b)
        flat = out.view(-1)
        i = int(torch.argmin((flat - 0.5).abs()))  # a value near 0.5: never one of the relu's zeros
        flat[i] = flat[i] + 2 * (1e-4 + 1e-4 * flat[i].abs())
        return out
