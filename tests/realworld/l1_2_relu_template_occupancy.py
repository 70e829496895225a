import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

template <bool USE_FMAX>
__global__ void relu_grid_stride(const float* __restrict__ in, float* __restrict__ out, int64_t n) {
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
        float v = in[i];
        out[i] = USE_FMAX ? fmaxf(v, 0.0f) : (v > 0.0f ? v : 0.0f);
    }
}

torch::Tensor relu_forward(torch::Tensor input) {
    auto output = torch::empty_like(input);
    const int64_t n = input.numel();
    const int block = 256;
    // Size the grid to fill the GPU exactly once (grid-stride loop).
    int blocks_per_sm = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, relu_grid_stride<true>, block, 0);
    int device = 0;
    cudaGetDevice(&device);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, device);
    const int grid = blocks_per_sm * prop.multiProcessorCount;
    relu_grid_stride<true><<<grid, block>>>(input.data_ptr<float>(), output.data_ptr<float>(), n);
    return output;
}
"""

cpp_src = "torch::Tensor relu_forward(torch::Tensor input);"

module = load_inline(
    name="relu_occupancy_grid",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["relu_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x):
        return module.relu_forward(x)
