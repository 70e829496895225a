import math
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Exact GELU: x * 0.5 * (1 + erf(x / sqrt(2))), one fused CUDA kernel.
gelu_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void gelu_erf_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = x[idx];
        y[idx] = 0.5f * v * (1.0f + erff(v * 0.70710678118654752f));
    }
}

torch::Tensor gelu_erf_cuda(torch::Tensor x) {
    auto input = x.contiguous();
    auto output = torch::empty_like(input);
    const int64_t n = input.numel();
    const int threads = 256;
    const int64_t blocks = (n + threads - 1) / threads;
    gelu_erf_kernel<<<blocks, threads>>>(input.data_ptr<float>(), output.data_ptr<float>(), n);
    return output;
}
"""

gelu_cpp_source = "torch::Tensor gelu_erf_cuda(torch::Tensor x);"

gelu_module = load_inline(
    name="gelu_erf",
    cpp_sources=gelu_cpp_source,
    cuda_sources=gelu_source,
    functions=["gelu_erf_cuda"],
    verbose=True,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.inv_sqrt2 = 1.0 / math.sqrt(2.0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu_module.gelu_erf_cuda(x)
