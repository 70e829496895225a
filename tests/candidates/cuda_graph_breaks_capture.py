# expect: correct; with --cuda-graph on a GPU: runtime_error, "could not be captured in a CUDA graph"
# Correct relu(a + b), but forward reads a value back to the host (.item()), which a CUDA graph
# capture cannot contain: eager timing works, graph timing cannot be set up.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        s = a + b
        if s.abs().max().item() < 0:  # never true; the read-back is the point
            s = -s
        return torch.relu(s)
