# WRONG ON PURPOSE: the kernel computes leaky ReLU (negative inputs are multiplied by 0.01)
# instead of ReLU (negative inputs -> 0). About half the outputs differ. Expected verdict: incorrect.
"""Deliberately wrong ReLU candidate: leaky ReLU with slope 0.01."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor leaky_relu_wrong(torch::Tensor x);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void leaky_relu_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        float v = in[i];
        out[i] = v < 0.0f ? 0.01f * v : v;  // the bug: should be 0.0f
    }
}

torch::Tensor leaky_relu_wrong(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "input must be float32");
    TORCH_CHECK(x.is_contiguous(), "input must be contiguous");
    auto out = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) return out;
    const int threads = 256;
    int64_t blocks = (n + threads - 1) / threads;
    if (blocks > 65535) blocks = 65535;
    leaky_relu_kernel<<<(unsigned int)blocks, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), n);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "leaky_relu_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="kforge_wrong_relu_leaky",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["leaky_relu_wrong"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.leaky_relu_wrong(x.contiguous())
