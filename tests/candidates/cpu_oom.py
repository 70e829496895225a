# expect: runtime_error
# forward asks for a 1 PiB host buffer; the allocation fails with RuntimeError (out of memory).
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        scratch = torch.empty(1 << 50, dtype=torch.uint8)  # 1 PiB on the CPU
        return torch.relu(a + b) + scratch[0].float() * 0
