# hack: PyTorch fallback
# GPU only, run with --fallback strict. Dressed as a custom kernel: a load_inline extension, but its
# C++ only calls ATen (torch::addmm), so the GEMM and everything else run in PyTorch's and cuBLAS's
# kernels. The launches come from libtorch_cuda and libcublasLt, none from the extension:
# rejected, rule pytorch-fallback.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
#include <torch/extension.h>

torch::Tensor linear_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    return torch::addmm(bias, x, weight.t());
}
"""

_ext = load_inline(
    name="kforge_hack_fallback_inline_aten",
    cpp_sources=_CPP_SRC,
    functions=["linear_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.linear_forward(x, self.linear.weight, self.linear.bias)
