import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Two-pass Frobenius normalisation:
#   pass 1: each block writes the sum of squares of its slice to a scratch buffer,
#           the partials are summed on the host in double precision for accuracy;
#   pass 2: y = x * sqrt(numel) / ||x||_F.
frobenius_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <vector>
#include <cmath>

#define NUM_BLOCKS 1024
#define THREADS 256

__global__ void sum_squares_partial_kernel(const float* __restrict__ x, float* __restrict__ partial, int64_t n) {
    __shared__ float sdata[THREADS];
    const int tid = threadIdx.x;
    int64_t i = (int64_t)blockIdx.x * blockDim.x + tid;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;

    float s = 0.0f;
    for (; i < n; i += stride) {
        const float v = x[i];
        s += v * v;
    }
    sdata[tid] = s;
    __syncthreads();

    for (int offset = blockDim.x / 2; offset > 0; offset >>= 1) {
        if (tid < offset) sdata[tid] += sdata[tid + offset];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = sdata[0];
}

__global__ void scale_kernel(const float* __restrict__ x, float* __restrict__ y,
                             const float* __restrict__ scale, int64_t n) {
    const float s = scale[0];
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) {
        y[i] = x[i] * s;
    }
}

torch::Tensor frobenius_normalize(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    auto xc = x.contiguous();
    const int64_t n = xc.numel();

    // scratch buffer for the per-block partial sums
    float* d_partial = nullptr;
    cudaError_t err = cudaMalloc(&d_partial, NUM_BLOCKS * sizeof(float));
    TORCH_CHECK(err == cudaSuccess, "cudaMalloc failed: ", cudaGetErrorString(err));

    sum_squares_partial_kernel<<<NUM_BLOCKS, THREADS>>>(xc.data_ptr<float>(), d_partial, n);

    std::vector<float> h_partial(NUM_BLOCKS);
    err = cudaMemcpy(h_partial.data(), d_partial, NUM_BLOCKS * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d_partial);
    TORCH_CHECK(err == cudaSuccess, "cudaMemcpy failed: ", cudaGetErrorString(err));

    double total = 0.0;
    for (int b = 0; b < NUM_BLOCKS; ++b) total += (double)h_partial[b];
    const float scale = (float)(std::sqrt((double)n) / std::sqrt(total));

    auto scale_t = torch::tensor({scale}, xc.options());
    auto y = torch::empty_like(xc);
    scale_kernel<<<NUM_BLOCKS, THREADS>>>(xc.data_ptr<float>(), y.data_ptr<float>(), scale_t.data_ptr<float>(), n);
    return y;
}
"""

frobenius_cpp_source = "torch::Tensor frobenius_normalize(torch::Tensor x);"

frobenius_ext = load_inline(
    name="frobenius_cudamalloc",
    cpp_sources=frobenius_cpp_source,
    cuda_sources=frobenius_source,
    functions=["frobenius_normalize"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return frobenius_ext.frobenius_normalize(x)
