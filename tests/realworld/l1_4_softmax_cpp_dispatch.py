import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Row-wise softmax on the CPU. The inputs are shifted by ~90, so exp(x) overflows in
# fp32: we subtract the row maximum first (the usual stable softmax).
softmax_cpp_source = r"""
#include <torch/extension.h>
#include <cmath>
#include <algorithm>

template <typename scalar_t>
void softmax_rows_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y,
                         int64_t rows, int64_t cols) {
    for (int64_t r = 0; r < rows; ++r) {
        const scalar_t* xr = x + r * cols;
        scalar_t* yr = y + r * cols;
        scalar_t m = xr[0];
        for (int64_t c = 1; c < cols; ++c) m = std::max(m, xr[c]);
        scalar_t sum = 0;
        for (int64_t c = 0; c < cols; ++c) {
            const scalar_t e = std::exp(xr[c] - m);
            yr[c] = e;
            sum += e;
        }
        const scalar_t inv = scalar_t(1) / sum;
        for (int64_t c = 0; c < cols; ++c) yr[c] *= inv;
    }
}

torch::Tensor softmax_forward(torch::Tensor x) {
    TORCH_CHECK(x.dim() == 2, "softmax_forward: expected a 2D tensor");
    x = x.contiguous();
    auto y = torch::empty_like(x);
    const int64_t rows = x.size(0);
    const int64_t cols = x.size(1);
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "softmax_forward", ([&] {
        softmax_rows_kernel<scalar_t>(x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), rows, cols);
    }));
    return y;
}
"""

softmax_cpp_decl = "torch::Tensor softmax_forward(torch::Tensor x);"

softmax_ext = load_inline(
    name="softmax_cpu_ext",
    cpp_sources=[softmax_cpp_decl, softmax_cpp_source],
    functions=["softmax_forward"],
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softmax_ext.softmax_forward(x)
