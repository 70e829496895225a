# expect: correct
# relu(a + b) with one of its elements, the one nearest 0.5, moved by half the tolerance (atol 1e-4
# + rtol 1e-4 * |value|, so by under 1e-4): within it, so correct, on a GPU through the one-pass
# comparison and on the CPU through ATen's (one_element_off.py moves it by twice the tolerance).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.relu(a + b)
        flat = out.view(-1)
        i = int(torch.argmin((flat - 0.5).abs()))  # a value near 0.5: never one of the relu's zeros
        flat[i] = flat[i] + 0.5 * (1e-4 + 1e-4 * flat[i].abs())
        return out
