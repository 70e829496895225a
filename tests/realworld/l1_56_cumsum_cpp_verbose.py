"""
Inclusive prefix sum along the last dimension.

A scan along a row is inherently sequential on one core, but the rows are
independent, so the C++ kernel walks each contiguous row once. The running sum is
kept in double (as ATen's CPU cumsum does) and rounded to float on store.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cumsum_cpp_source = """
#include <torch/extension.h>

torch::Tensor cumsum_lastdim(torch::Tensor x) {
    TORCH_CHECK(x.device().is_cpu(), "cumsum_lastdim: CPU tensors only");
    TORCH_CHECK(x.scalar_type() == at::kFloat, "cumsum_lastdim: float32 only");
    auto input = x.contiguous();
    auto output = at::empty_like(input);
    const int64_t length = input.size(-1);
    const int64_t rows = input.numel() / length;
    const float* src = input.data_ptr<float>();
    float* dst = output.data_ptr<float>();
    for (int64_t r = 0; r < rows; ++r) {
        double running = 0.0;
        const float* s = src + r * length;
        float* d = dst + r * length;
        for (int64_t i = 0; i < length; ++i) {
            running += s[i];
            d[i] = static_cast<float>(running);
        }
    }
    return output;
}
"""

cumsum_cpp_header = "torch::Tensor cumsum_lastdim(torch::Tensor x);"

cumsum_ext = load_inline(
    name="cumsum_lastdim_ext",
    cpp_sources=[cumsum_cpp_header, cumsum_cpp_source],
    functions=["cumsum_lastdim"],
    verbose=True,
    extra_cflags=["-O3"],
    extra_ldflags=[""],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.dim not in (-1, x.dim() - 1):
            # fall back for other dims: move the scanned dim last
            xt = x.transpose(self.dim, -1)
            return cumsum_ext.cumsum_lastdim(xt).transpose(self.dim, -1)
        return cumsum_ext.cumsum_lastdim(x)
