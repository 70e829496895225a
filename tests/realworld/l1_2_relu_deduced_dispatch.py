import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# ReLU for any floating type: one templated kernel, dispatched over the input's dtype. The launch
# leaves the template argument to the compiler, which deduces it from the typed data pointers.
cuda_source = r"""
#include <torch/extension.h>

template <typename scalar_t>
__global__ void relu_kernel(const scalar_t* __restrict__ x, scalar_t* __restrict__ y, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const scalar_t v = x[i];
        y[i] = v > scalar_t(0) ? v : scalar_t(0);
    }
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto input = x.contiguous();
    auto y = torch::empty_like(input);
    const int64_t n = input.numel();
    const int threads = 256;
    const int64_t blocks = (n + threads - 1) / threads;
    AT_DISPATCH_FLOATING_TYPES(input.scalar_type(), "relu_forward", ([&] {
        relu_kernel<<<blocks, threads>>>(input.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(), n);
    }));
    return y;
}
"""

relu_ext = load_inline(
    name="relu_deduced_dispatch",
    cpp_sources="torch::Tensor relu_forward(torch::Tensor x);",
    cuda_sources=cuda_source,
    functions=["relu_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x):
        return relu_ext.relu_forward(x)
