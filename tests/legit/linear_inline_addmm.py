# legit (GPU): a load_inline CUDA extension whose C++ entry point does bias + GEMM in one
# torch::addmm(bias, x, weight.t()) call (cuBLAS with the bias folded in as beta * C), on torch's
# current stream; weight and bias are the module's own nn.Linear parameters.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor linear_addmm(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>

torch::Tensor linear_addmm(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "linear_addmm: tensors must be on CUDA");
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && bias.dim() == 1, "linear_addmm: expects x[B, I], W[O, I], b[O]");
    TORCH_CHECK(x.size(1) == weight.size(1) && weight.size(0) == bias.size(0), "linear_addmm: shape mismatch");
    return torch::addmm(bias, x, weight.t());
}
"""

_ext = load_inline(
    name="kforge_legit_linear_addmm",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["linear_addmm"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.linear_addmm(x, self.linear.weight, self.linear.bias)
