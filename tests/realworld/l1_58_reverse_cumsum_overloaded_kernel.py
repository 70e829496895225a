"""
Reverse cumulative sum along `dim` without the two flips.

The tensor is viewed as (outer, T, inner); one thread owns one (outer, inner) column and walks
it from the end, so consecutive threads touch consecutive addresses at every step. The kernel is
overloaded for float and double (same name, different pointer types) and the host picks the one
matching the input's dtype.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_src = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void reverse_cumsum_kernel(const float* __restrict__ x, float* __restrict__ y,
                                      int64_t outer, int64_t steps, int64_t inner) {
    const int64_t col = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= outer * inner) return;
    const int64_t o = col / inner;
    const int64_t i = col % inner;
    const float* src = x + o * steps * inner + i;
    float* dst = y + o * steps * inner + i;
    float running = 0.0f;
    for (int64_t t = steps - 1; t >= 0; --t) {
        running += src[t * inner];
        dst[t * inner] = running;
    }
}

__global__ void reverse_cumsum_kernel(const double* __restrict__ x, double* __restrict__ y,
                                      int64_t outer, int64_t steps, int64_t inner) {
    const int64_t col = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (col >= outer * inner) return;
    const int64_t o = col / inner;
    const int64_t i = col % inner;
    const double* src = x + o * steps * inner + i;
    double* dst = y + o * steps * inner + i;
    double running = 0.0;
    for (int64_t t = steps - 1; t >= 0; --t) {
        running += src[t * inner];
        dst[t * inner] = running;
    }
}

torch::Tensor reverse_cumsum(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.is_cuda(), "reverse_cumsum: x must be a CUDA tensor");
    if (dim < 0) dim += x.dim();
    TORCH_CHECK(dim >= 0 && dim < x.dim(), "reverse_cumsum: bad dim");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);

    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < dim; ++d) outer *= xc.size(d);
    for (int64_t d = dim + 1; d < xc.dim(); ++d) inner *= xc.size(d);
    const int64_t steps = xc.size(dim);
    const int64_t columns = outer * inner;
    if (columns == 0 || steps == 0) return y;

    const int threads = 256;
    const unsigned int blocks = (unsigned int)((columns + threads - 1) / threads);
    if (xc.scalar_type() == torch::kFloat64) {
        reverse_cumsum_kernel<<<blocks, threads>>>(
            xc.data_ptr<double>(), y.data_ptr<double>(), outer, steps, inner);
    } else {
        TORCH_CHECK(xc.scalar_type() == torch::kFloat32, "reverse_cumsum: float32 or float64 only");
        reverse_cumsum_kernel<<<blocks, threads>>>(
            xc.data_ptr<float>(), y.data_ptr<float>(), outer, steps, inner);
    }
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "reverse_cumsum_kernel launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

cpp_src = "torch::Tensor reverse_cumsum(torch::Tensor x, int64_t dim);"

reverse_cumsum_ext = load_inline(
    name="reverse_cumsum_overloads",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["reverse_cumsum"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return reverse_cumsum_ext.reverse_cumsum(x, self.dim)
