import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

# GEMM + bias stays on cuBLAS (bf16 tensor cores); the per-output-channel scale is our kernel.
# On Ampere and newer the multiply uses the native half / bfloat16 intrinsics, older parts
# go through float.
channel_scale_cuda = """
#include <torch/extension.h>
#include "cuda_fp16.h"
#include <cuda_bf16.h>
#include <cuda_runtime.h>

__device__ __forceinline__ __nv_bfloat16 scale_mul(__nv_bfloat16 a, __nv_bfloat16 s) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __hmul(a, s);
#else
    return __float2bfloat16(__bfloat162float(a) * __bfloat162float(s));
#endif
}

__device__ __forceinline__ __half scale_mul(__half a, __half s) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    return __hmul(a, s);
#else
    return __float2half(__half2float(a) * __half2float(s));
#endif
}

__device__ __forceinline__ float scale_mul(float a, float s) {
    return a * s;
}

template <typename T>
__global__ void channel_scale_kernel(const T* __restrict__ y,
                                     const T* __restrict__ scale,
                                     T* __restrict__ out,
                                     int64_t total,
                                     int64_t channels) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        out[i] = scale_mul(y[i], scale[i % channels]);
    }
}

torch::Tensor channel_scale_forward(torch::Tensor y, torch::Tensor scale) {
    TORCH_CHECK(y.is_cuda() && scale.is_cuda(), "channel_scale_forward: CUDA tensors expected");
    TORCH_CHECK(y.scalar_type() == scale.scalar_type(), "channel_scale_forward: dtype mismatch");
    auto yc = y.contiguous();
    auto sc = scale.contiguous();
    const int64_t channels = sc.numel();
    TORCH_CHECK(yc.size(-1) == channels, "channel_scale_forward: last dim must match the scale");
    auto out = torch::empty_like(yc);
    const int64_t total = yc.numel();
    if (total == 0) return out;

    const int threads = 256;
    int64_t blocks = (total + threads - 1) / threads;
    if (blocks > 132 * 16) blocks = 132 * 16;

    if (yc.scalar_type() == at::kBFloat16) {
        channel_scale_kernel<__nv_bfloat16><<<(unsigned int)blocks, threads>>>(
            reinterpret_cast<const __nv_bfloat16*>(yc.data_ptr<at::BFloat16>()),
            reinterpret_cast<const __nv_bfloat16*>(sc.data_ptr<at::BFloat16>()),
            reinterpret_cast<__nv_bfloat16*>(out.data_ptr<at::BFloat16>()),
            total, channels);
    } else if (yc.scalar_type() == at::kHalf) {
        channel_scale_kernel<__half><<<(unsigned int)blocks, threads>>>(
            reinterpret_cast<const __half*>(yc.data_ptr<at::Half>()),
            reinterpret_cast<const __half*>(sc.data_ptr<at::Half>()),
            reinterpret_cast<__half*>(out.data_ptr<at::Half>()),
            total, channels);
    } else {
        TORCH_CHECK(yc.scalar_type() == at::kFloat, "channel_scale_forward: unsupported dtype");
        channel_scale_kernel<float><<<(unsigned int)blocks, threads>>>(
            yc.data_ptr<float>(), sc.data_ptr<float>(), out.data_ptr<float>(), total, channels);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "channel_scale_kernel: ", cudaGetErrorString(err));
    return out;
}
"""

channel_scale_cpp = "torch::Tensor channel_scale_forward(torch::Tensor y, torch::Tensor scale);"

channel_scale_ext = load_inline(
    name="gemm_channel_scale_arch_guard",
    cpp_sources=channel_scale_cpp,
    cuda_sources=channel_scale_cuda,
    functions=["channel_scale_forward"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super(ModelNew, self).__init__()
        self.weight = nn.Parameter(torch.randn(out_features, in_features).mul_(in_features ** -0.5))
        self.bias = nn.Parameter(torch.randn(out_features) * 0.2)
        self.channel_scale = nn.Parameter(0.5 + torch.rand(out_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.linear(x, self.weight, self.bias)
        return channel_scale_ext.channel_scale_forward(y, self.channel_scale)
