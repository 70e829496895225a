import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Optimized ReLU: a templated kernel with a compile-time vector width, launched through a macro.
relu_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

template <int VEC>
__global__ void relu_kernel_t(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    int64_t base = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) * VEC;
    #pragma unroll
    for (int k = 0; k < VEC; ++k) {
        int64_t i = base + k;
        if (i < n) y[i] = fmaxf(x[i], 0.0f);
    }
}

#define RELU_KERNEL relu_kernel_t<4>

torch::Tensor relu_cuda(torch::Tensor x) {
    auto y = torch::empty_like(x);
    int64_t n = x.numel();
    const int threads = 256;
    const int64_t blocks = (n + threads * 4 - 1) / (threads * 4);
    RELU_KERNEL<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>(), n);
    return y;
}
"""

relu_cpp_source = "torch::Tensor relu_cuda(torch::Tensor x);"

relu_ext = load_inline(
    name="relu_template_macro",
    cpp_sources=relu_cpp_source,
    cuda_sources=relu_source,
    functions=["relu_cuda"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.relu = relu_ext

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.relu.relu_cuda(x.contiguous())
