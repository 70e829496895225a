# legit (GPU): a load_inline CUDA kernel fusing add and ReLU in one pass (float4 loads and stores
# when a, b and out are 16-byte aligned, a scalar kernel for the tail), launched on torch's current
# stream. Reads a and b once and writes once, against the reference's two kernels: expected faster.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor fused_add_relu(torch::Tensor a, torch::Tensor b);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>
#include <stdint.h>

__device__ __forceinline__ float relu_keep_nan(float v) { return v < 0.0f ? 0.0f : v; }

__global__ void fused_add_relu_vec4(const float4* __restrict__ a, const float4* __restrict__ b,
                                    float4* __restrict__ out, int64_t n4) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
        const float4 x = a[i];
        const float4 y = b[i];
        float4 r;
        r.x = relu_keep_nan(x.x + y.x);
        r.y = relu_keep_nan(x.y + y.y);
        r.z = relu_keep_nan(x.z + y.z);
        r.w = relu_keep_nan(x.w + y.w);
        out[i] = r;
    }
}

__global__ void fused_add_relu_scalar(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ out, int64_t from, int64_t n) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = from + (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        out[i] = relu_keep_nan(a[i] + b[i]);
    }
}

torch::Tensor fused_add_relu(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "fused_add_relu: inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32,
                "fused_add_relu: inputs must be float32");
    TORCH_CHECK(a.sizes() == b.sizes(), "fused_add_relu: inputs must have the same shape");
    auto ac = a.contiguous();
    auto bc = b.contiguous();
    auto out = torch::empty_like(ac);
    const int64_t n = ac.numel();
    if (n == 0) return out;
    const float* pa = ac.data_ptr<float>();
    const float* pb = bc.data_ptr<float>();
    float* po = out.data_ptr<float>();
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    const int threads = 256;
    const int64_t max_blocks = 2147483647LL;
    const bool aligned = (reinterpret_cast<uintptr_t>(pa) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(pb) % 16 == 0) &&
                         (reinterpret_cast<uintptr_t>(po) % 16 == 0);
    int64_t done = 0;
    if (aligned) {
        const int64_t n4 = n / 4;
        if (n4 > 0) {
            int64_t blocks = (n4 + threads - 1) / threads;
            if (blocks > max_blocks) blocks = max_blocks;
            fused_add_relu_vec4<<<(unsigned int)blocks, threads, 0, stream>>>(
                reinterpret_cast<const float4*>(pa), reinterpret_cast<const float4*>(pb),
                reinterpret_cast<float4*>(po), n4);
        }
        done = n4 * 4;
    }
    if (n > done) {
        int64_t blocks = (n - done + threads - 1) / threads;
        if (blocks > max_blocks) blocks = max_blocks;
        fused_add_relu_scalar<<<(unsigned int)blocks, threads, 0, stream>>>(pa, pb, po, done, n);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "fused_add_relu launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="kforge_legit_fused_add_relu_vec4",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["fused_add_relu"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.fused_add_relu(a, b)
