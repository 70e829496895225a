# legit: relu(a + b) through torch.compile, as models often write it: a compiled function built in
# __init__ and called in forward. Its first call imports torch._dynamo, which replaces
# torch.manual_seed and nn.Module.__init__ with wrappers of torch's own, and compiles with Inductor
# (C++ on the CPU, Triton on a GPU); kforge must take neither for the candidate's doing (both were
# rejected until session 41: patched-torch, then thread-injection for Inductor's compile pool).
import torch
import torch.nn as nn


def _add_relu(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.relu(a + b)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.add_relu = torch.compile(_add_relu)

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return self.add_relu(a, b)
