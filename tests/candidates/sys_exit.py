# expect: runtime_error
# forward calls sys.exit(3), which raises SystemExit inside the call.
import sys

import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        sys.exit(3)
