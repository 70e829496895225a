import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# GEMV y = A @ x: memory bound on reading A (6 GB) exactly once.
# One warp per row, float4 (128-bit) loads, warp shuffle reduction.
gemv_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define WARPS_PER_BLOCK 8

__global__ void __launch_bounds__(WARPS_PER_BLOCK * 32)
gemv_warp_kernel(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y,
                 int M, int K) {
    const int warp = threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    const int row = blockIdx.x * WARPS_PER_BLOCK + warp;
    if (row >= M) return;

    const float4* a4 = reinterpret_cast<const float4*>(A + (size_t)row * K);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const int K4 = K / 4;

    float sum = 0.0f;
    for (int i = lane; i < K4; i += 32) {
        float4 a = a4[i];
        float4 b = __ldg(&x4[i]);
        sum += a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    }
    // leftover elements when K is not a multiple of 4
    for (int i = K4 * 4 + lane; i < K; i += 32) {
        sum += A[(size_t)row * K + i] * x[i];
    }

    for (int offset = 16; offset > 0; offset /= 2) {
        sum += __shfl_down_sync(0xffffffff, sum, offset);
    }
    if (lane == 0) y[row] = sum;
}

torch::Tensor gemv_cuda(torch::Tensor A, torch::Tensor x) {
    A = A.contiguous();
    x = x.contiguous();
    const int M = A.size(0);
    const int K = A.size(1);
    TORCH_CHECK(x.numel() == K, "shape mismatch");
    auto y = torch::empty({M, 1}, A.options());
    const int threads = WARPS_PER_BLOCK * 32;
    const int blocks = (M + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK;
    gemv_warp_kernel<<<blocks, threads>>>(A.data_ptr<float>(), x.data_ptr<float>(), y.data_ptr<float>(), M, K);
    return y;
}
"""

gemv_cpp_source = "torch::Tensor gemv_cuda(torch::Tensor A, torch::Tensor x);"

gemv = load_inline(
    name="gemv_warp",
    cpp_sources=gemv_cpp_source,
    cuda_sources=gemv_source,
    functions=["gemv_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return gemv.gemv_cuda(A, x)
