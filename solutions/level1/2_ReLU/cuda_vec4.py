"""ReLU with a float4-vectorised grid-stride CUDA kernel (one float4 per thread per loop step)."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor relu_vec4(torch::Tensor x);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

// x < 0 ? 0 : x keeps NaN as NaN, like torch.relu.
__device__ __forceinline__ float relu1(float v) { return v < 0.0f ? 0.0f : v; }

__global__ void relu_vec4_kernel(const float4* __restrict__ in, float4* __restrict__ out, int64_t n4) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (; i < n4; i += stride) {
        float4 v = in[i];
        v.x = relu1(v.x);
        v.y = relu1(v.y);
        v.z = relu1(v.z);
        v.w = relu1(v.w);
        out[i] = v;
    }
}

// Scalar kernel for the tail (and for unaligned pointers): elements [start, n).
__global__ void relu_scalar_kernel(const float* __restrict__ in, float* __restrict__ out, int64_t start, int64_t n) {
    int64_t i = start + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        out[i] = relu1(in[i]);
    }
}

torch::Tensor relu_vec4(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "relu_vec4: input must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "relu_vec4: input must be float32");
    TORCH_CHECK(x.is_contiguous(), "relu_vec4: input must be contiguous");
    auto out = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) return out;

    const float* in_ptr = x.data_ptr<float>();
    float* out_ptr = out.data_ptr<float>();
    // Enough blocks to give every thread one float4 (measured on an H200 with 16384 x 16384:
    // about as fast as torch.relu, while a grid capped at a few blocks per SM with a longer
    // loop was ~8% slower). The grid-stride loop only matters past the grid-size limit.
    const int threads = 128;
    const int64_t max_blocks = 2147483647LL;

    const bool aligned = (reinterpret_cast<uintptr_t>(in_ptr) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(out_ptr) % 16 == 0);
    int64_t done = 0;
    if (aligned) {
        const int64_t n4 = n / 4;
        if (n4 > 0) {
            int64_t blocks = (n4 + threads - 1) / threads;
            if (blocks > max_blocks) blocks = max_blocks;
            relu_vec4_kernel<<<(unsigned int)blocks, threads>>>(
                reinterpret_cast<const float4*>(in_ptr), reinterpret_cast<float4*>(out_ptr), n4);
            cudaError_t err = cudaGetLastError();
            TORCH_CHECK(err == cudaSuccess, "relu_vec4_kernel launch failed: ", cudaGetErrorString(err));
        }
        done = n4 * 4;
    }
    const int64_t rest = n - done;
    if (rest > 0) {
        int64_t blocks = (rest + threads - 1) / threads;
        if (blocks > max_blocks) blocks = max_blocks;
        relu_scalar_kernel<<<(unsigned int)blocks, threads>>>(in_ptr, out_ptr, done, n);
        cudaError_t err = cudaGetLastError();
        TORCH_CHECK(err == cudaSuccess, "relu_scalar_kernel launch failed: ", cudaGetErrorString(err));
    }
    return out;
}
"""

_ext = load_inline(
    name="kforge_sol_relu_vec4",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["relu_vec4"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.relu_vec4(x.contiguous())
