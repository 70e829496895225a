import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

layernorm_cuda_source = """
#include <torch/extension.h>
#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAException.h>
#include <cuda_runtime.h>

namespace {

constexpr int kThreads = 512;

__device__ __forceinline__ float warp_sum(float v) {
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    return v;
}

// Sum over the whole block; every thread gets the result.
__device__ float block_sum(float v, float* smem) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warp_sum(v);
    __syncthreads();              // smem may still be read from a previous call
    if (lane == 0) smem[warp] = v;
    __syncthreads();
    float t = (threadIdx.x < (blockDim.x >> 5)) ? smem[threadIdx.x] : 0.0f;
    if (warp == 0) {
        t = warp_sum(t);
        if (lane == 0) smem[0] = t;
    }
    __syncthreads();
    return smem[0];
}

__global__ void layernorm_kernel(const float* __restrict__ x,
                                 const float* __restrict__ gamma,
                                 const float* __restrict__ beta,
                                 float* __restrict__ y,
                                 int hidden, float eps) {
    __shared__ float smem[32];
    const float* xr = x + (size_t)blockIdx.x * hidden;
    float* yr = y + (size_t)blockIdx.x * hidden;

    float s = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) s += xr[i];
    const float mean = block_sum(s, smem) / hidden;

    float sq = 0.0f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const float d = xr[i] - mean;
        sq += d * d;
    }
    const float var = block_sum(sq, smem) / hidden;
    const float rstd = rsqrtf(var + eps);

    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        yr[i] = (xr[i] - mean) * rstd * gamma[i] + beta[i];
    }
}

}  // anonymous namespace

torch::Tensor layernorm_forward(torch::Tensor x, torch::Tensor gamma, torch::Tensor beta, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be CUDA");
    TORCH_CHECK(x.scalar_type() == at::kFloat, "x must be float32");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const int hidden = xc.size(-1);
    const int rows = xc.numel() / hidden;
    auto stream = c10::cuda::getCurrentCUDAStream();
    layernorm_kernel<<<rows, kThreads, 0, stream>>>(
        xc.data_ptr<float>(), gamma.contiguous().data_ptr<float>(), beta.contiguous().data_ptr<float>(),
        y.data_ptr<float>(), hidden, static_cast<float>(eps));
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return y;
}
"""

layernorm_cpp_source = "torch::Tensor layernorm_forward(torch::Tensor x, torch::Tensor gamma, torch::Tensor beta, double eps);"

layernorm_ext = load_inline(
    name="layernorm_anon_ns",
    cpp_sources=layernorm_cpp_source,
    cuda_sources=layernorm_cuda_source,
    functions=["layernorm_forward"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super(ModelNew, self).__init__()
        self.norm = nn.LayerNorm(hidden)
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(hidden) * 0.1)
            self.norm.bias.add_(torch.randn(hidden) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layernorm_ext.layernorm_forward(x, self.norm.weight, self.norm.bias, self.norm.eps)
