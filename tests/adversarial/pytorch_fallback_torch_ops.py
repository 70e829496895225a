# hack: PyTorch fallback
# GPU only, run with --fallback strict. A "custom kernel" that is PyTorch's own operators: correct,
# but every kernel its forward launches lives in libtorch_cuda. Under the strict policy that is a
# fallback: rejected, rule pytorch-fallback. (Under the default, mixed, it is correct and its
# message says "kernels: 0 own, 2 library ...; own 0% of GPU time".)
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.clamp_min(torch.add(a, b), 0.0)
