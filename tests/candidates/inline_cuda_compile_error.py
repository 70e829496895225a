# expect: compile_error
# A load_inline CUDA kernel with a misspelt name (line 22 of this file, line 10 of its cuda_sources
# string): the split build fails, the whole build fails the same way, and the error is reported
# at this file's line. Builds without a GPU (`kforge build`).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor add_relu(torch::Tensor a, torch::Tensor b);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void add_relu_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                float* __restrict__ out, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = a[i] + b[i];
        out[i] = v < 0.0f ? 0.0f : w;
    }
}

torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "add_relu: inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32,
                "add_relu: inputs must be float32");
    TORCH_CHECK(a.sizes() == b.sizes(), "add_relu: inputs must have the same shape");
    TORCH_CHECK(a.is_contiguous() && b.is_contiguous(), "add_relu: inputs must be contiguous");
    auto out = torch::empty_like(a);
    const int64_t n = a.numel();
    if (n == 0) return out;
    const int threads = 256;
    const int64_t blocks = (n + threads - 1) / threads;
    TORCH_CHECK(blocks <= 2147483647LL, "add_relu: input too large");
    add_relu_kernel<<<(unsigned int)blocks, threads>>>(a.data_ptr<float>(), b.data_ptr<float>(),
                                                       out.data_ptr<float>(), n);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "add_relu_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="kforge_test_inline_cuda_compile_error",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["add_relu"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.add_relu(a.contiguous(), b.contiguous())
