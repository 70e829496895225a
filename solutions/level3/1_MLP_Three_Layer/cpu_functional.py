"""The same 3-layer MLP written with F.linear / torch.addmm instead of nn.Sequential (plain PyTorch)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_sizes: list, output_size: int):
        super().__init__()
        # Create the Linear layers in the same order as the reference so the weights match.
        # Kept inside a Sequential named `net` with ReLU at the same positions, so even the
        # parameter names (net.0.weight, net.2.weight, ...) are identical to Model's.
        layers = []
        prev = input_size
        for h in hidden_sizes:
            layers.append(nn.Linear(prev, h))
            layers.append(nn.ReLU())
            prev = h
        layers.append(nn.Linear(prev, output_size))
        self.net = nn.Sequential(*layers)
        self.linears = [m for m in self.net if isinstance(m, nn.Linear)]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        *hidden, last = self.linears
        for lin in hidden:
            x = torch.relu(torch.addmm(lin.bias, x, lin.weight.t()))
        return F.linear(x, last.weight, last.bias)
