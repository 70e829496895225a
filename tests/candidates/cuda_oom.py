# expect: runtime_error
# GPU only: forward asks for a 1 PiB CUDA buffer; torch raises torch.OutOfMemoryError.
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        scratch = torch.empty(1 << 50, dtype=torch.uint8, device="cuda")  # 1 PiB
        return torch.relu(a + b) + scratch[0].float() * 0
