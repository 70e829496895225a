import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

rmsnorm_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

// One block per token row: sum of squares -> rsqrt(mean + eps) -> scale by weight.
__global__ void rmsnorm_kernel(const float* __restrict__ x,
                               const float* __restrict__ weight,
                               float* __restrict__ y,
                               const int hidden,
                               const float eps) {
    extern __shared__ float warp_sums[];
    const float* xr = x + (size_t)blockIdx.x * hidden;
    float* yr = y + (size_t)blockIdx.x * hidden;

    float ss = 0.f;
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        const float v = xr[i];
        ss += v * v;
    }
    for (int off = 16; off > 0; off >>= 1) ss += __shfl_down_sync(0xffffffff, ss, off);
    if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = ss;
    __syncthreads();
    if (threadIdx.x < 32) {
        float t = threadIdx.x < (blockDim.x >> 5) ? warp_sums[threadIdx.x] : 0.f;
        for (int off = 16; off > 0; off >>= 1) t += __shfl_down_sync(0xffffffff, t, off);
        if (threadIdx.x == 0) warp_sums[0] = rsqrtf(t / hidden + eps);
    }
    __syncthreads();
    const float r = warp_sums[0];
    for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
        yr[i] = xr[i] * r * weight[i];
    }
}

torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(weight.is_cuda(), "weight must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == at::ScalarType::Float, "float32 only");
    auto xc = x.contiguous();
    auto w = weight.contiguous();
    const int hidden = xc.size(-1);
    const int rows = xc.numel() / hidden;
    auto y = torch::empty_like(xc);
    const int threads = 256;
    const size_t smem = (threads / 32) * sizeof(float);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    rmsnorm_kernel<<<rows, threads, smem, stream>>>(xc.data_ptr<float>(), w.data_ptr<float>(),
                                                    y.data_ptr<float>(), hidden, (float)eps);
    return y;
}
"""

rmsnorm_cpp = "torch::Tensor rmsnorm_forward(torch::Tensor x, torch::Tensor weight, double eps);"

rmsnorm_ext = load_inline(
    name="rmsnorm_cuda",
    cpp_sources=rmsnorm_cpp,
    cuda_sources=rmsnorm_source,
    functions=["rmsnorm_forward"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float):
        super(ModelNew, self).__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(hidden) + torch.randn(hidden) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rmsnorm_ext.rmsnorm_forward(x, self.weight, self.eps)
