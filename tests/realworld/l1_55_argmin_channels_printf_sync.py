import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# argmin over one dimension. The tensor is seen as (outer, reduce, inner); each thread scans one
# (outer, inner) position across the reduced dimension, so a warp reads 32 neighbouring pixels of
# the same channel at every step (coalesced for NCHW with dim=1).
argmin_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cstdio>

__global__ void argmin_dim_kernel(const float* __restrict__ x,
                                  int64_t* __restrict__ out,
                                  int64_t n,
                                  int64_t reduce,
                                  int64_t inner) {
    // debug: sanity check of the launch arguments
    if (blockIdx.x == 0 && threadIdx.x == 0 && n < 0) {
        printf("argmin_dim_kernel: n=%lld reduce=%lld inner=%lld\\n",
               (long long)n, (long long)reduce, (long long)inner);
    }
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx >= n) return;
    const int64_t o = idx / inner;
    const int64_t i = idx - o * inner;
    const float* p = x + o * reduce * inner + i;

    float best = p[0];
    int64_t best_idx = 0;
    for (int64_t r = 1; r < reduce; ++r) {
        const float v = p[r * inner];
        if (v < best) {
            best = v;
            best_idx = r;
        }
    }
    out[idx] = best_idx;
}

torch::Tensor argmin_dim(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "argmin_dim: x must be CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat, "argmin_dim: x must be float32");
    if (dim < 0) dim += x.dim();
    auto xc = x.contiguous();
    const int64_t reduce = xc.size(dim);
    TORCH_CHECK(reduce > 0, "argmin_dim: empty reduction");

    int64_t outer = 1, inner = 1;
    std::vector<int64_t> out_shape;
    for (int64_t d = 0; d < xc.dim(); ++d) {
        if (d < dim) outer *= xc.size(d);
        if (d > dim) inner *= xc.size(d);
        if (d != dim) out_shape.push_back(xc.size(d));
    }
    auto out = torch::empty(out_shape, xc.options().dtype(torch::kLong));
    const int64_t n = outer * inner;
    if (n == 0) return out;

    const int threads = 256;
    const int blocks = (int)((n + threads - 1) / threads);
    argmin_dim_kernel<<<blocks, threads>>>(xc.data_ptr<float>(), out.data_ptr<int64_t>(), n, reduce, inner);
    cudaDeviceSynchronize();
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        printf("CUDA error in argmin_dim: %s\\n", cudaGetErrorString(err));
    }
    return out;
}
"""

argmin_cpp_source = "torch::Tensor argmin_dim(torch::Tensor x, int64_t dim);"

argmin_module = load_inline(
    name="argmin_channels_printf",
    cpp_sources=argmin_cpp_source,
    cuda_sources=argmin_source,
    functions=["argmin_dim"],
    verbose=False,
    extra_cflags=["-O3"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return argmin_module.argmin_dim(x, self.dim)
