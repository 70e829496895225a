"""
Fused row softmax: one thread block per row.

1. block-wide max (warp shuffle reduction, then shared memory across warps)
2. block-wide sum of exp(x - max)
3. write exp(x - max) / sum

The row (1024 floats) is read three times but stays in L1/L2, and everything
happens in a single kernel launch instead of PyTorch's max/sub/exp/sum/div chain.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>

#define WARP_SIZE 32

__device__ __forceinline__ float warp_reduce_max(float val) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
        val = fmaxf(val, __shfl_down_sync(0xffffffff, val, offset));
    return val;
}

__device__ __forceinline__ float warp_reduce_sum(float val) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__global__ void softmax_kernel(const float* __restrict__ input, float* __restrict__ output, int cols) {
    __shared__ float shared[32];
    __shared__ float row_max;
    __shared__ float row_sum;

    const int row = blockIdx.x;
    const int tid = threadIdx.x;
    const int lane = tid % WARP_SIZE;
    const int warp_id = tid / WARP_SIZE;
    const int num_warps = blockDim.x / WARP_SIZE;
    const float* x = input + (size_t)row * cols;
    float* y = output + (size_t)row * cols;

    // 1) max
    float local_max = -FLT_MAX;
    for (int i = tid; i < cols; i += blockDim.x) local_max = fmaxf(local_max, x[i]);
    local_max = warp_reduce_max(local_max);
    if (lane == 0) shared[warp_id] = local_max;
    __syncthreads();
    if (warp_id == 0) {
        float v = (lane < num_warps) ? shared[lane] : -FLT_MAX;
        v = warp_reduce_max(v);
        if (lane == 0) row_max = v;
    }
    __syncthreads();
    const float m = row_max;

    // 2) sum of exp
    float local_sum = 0.0f;
    for (int i = tid; i < cols; i += blockDim.x) local_sum += expf(x[i] - m);
    local_sum = warp_reduce_sum(local_sum);
    if (lane == 0) shared[warp_id] = local_sum;
    __syncthreads();
    if (warp_id == 0) {
        float v = (lane < num_warps) ? shared[lane] : 0.0f;
        v = warp_reduce_sum(v);
        if (lane == 0) row_sum = v;
    }
    __syncthreads();
    const float inv_sum = 1.0f / row_sum;

    // 3) normalize
    for (int i = tid; i < cols; i += blockDim.x) y[i] = expf(x[i] - m) * inv_sum;
}

torch::Tensor softmax_cuda(torch::Tensor input) {
    TORCH_CHECK(input.dim() == 2, "expected 2D input");
    auto x = input.contiguous();
    auto out = torch::empty_like(x);
    const int rows = x.size(0);
    const int cols = x.size(1);
    const int threads = 256;
    softmax_kernel<<<rows, threads>>>(x.data_ptr<float>(), out.data_ptr<float>(), cols);
    return out;
}
"""

softmax_cpp_source = "torch::Tensor softmax_cuda(torch::Tensor input);"

softmax_module = load_inline(
    name="fused_softmax",
    cpp_sources=softmax_cpp_source,
    cuda_sources=softmax_source,
    functions=["softmax_cuda"],
    verbose=False,
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.softmax_module = softmax_module

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.softmax_module.softmax_cuda(x)
