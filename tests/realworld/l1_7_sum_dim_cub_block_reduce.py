import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

sum_dim_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cub/cub.cuh>

#define BLOCK_THREADS 256

// One block per row; each thread accumulates a strided slice, then CUB combines the block.
__global__ void row_sum_cub_kernel(const float* __restrict__ x, float* __restrict__ out,
                                   int64_t rows, int64_t cols) {
    typedef cub::BlockReduce<float, BLOCK_THREADS> BlockReduce;
    __shared__ typename BlockReduce::TempStorage temp_storage;

    const int64_t row = blockIdx.x;
    if (row >= rows) return;
    const float* xr = x + row * cols;

    float thread_sum = 0.0f;
    for (int64_t c = threadIdx.x; c < cols; c += BLOCK_THREADS) {
        thread_sum += xr[c];
    }

    float block_sum = BlockReduce(temp_storage).Sum(thread_sum);
    if (threadIdx.x == 0) {
        out[row] = block_sum;
    }
}

torch::Tensor sum_last_dim_keepdim(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "x must be float32");
    TORCH_CHECK(x.dim() >= 1, "x must have at least one dimension");
    auto xc = x.contiguous();
    const int64_t cols = xc.size(-1);
    const int64_t rows = cols == 0 ? 0 : xc.numel() / cols;

    std::vector<int64_t> out_shape = xc.sizes().vec();
    out_shape.back() = 1;
    auto out = torch::zeros(out_shape, xc.options());
    if (rows == 0 || cols == 0) return out;

    row_sum_cub_kernel<<<(unsigned int)rows, BLOCK_THREADS>>>(xc.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    return out;
}
"""

sum_dim_cpp_source = "torch::Tensor sum_last_dim_keepdim(torch::Tensor x);"

sum_dim_cub = load_inline(
    name="sum_dim_cub",
    cpp_sources=sum_dim_cpp_source,
    cuda_sources=sum_dim_source,
    functions=["sum_last_dim_keepdim"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        dim = self.dim if self.dim >= 0 else self.dim + x.dim()
        if dim == x.dim() - 1:
            return sum_dim_cub.sum_last_dim_keepdim(x)
        # Move the reduced dimension last, reduce, and move the kept size-1 dim back.
        moved = x.movedim(dim, -1).contiguous()
        out = sum_dim_cub.sum_last_dim_keepdim(moved)
        return out.movedim(-1, dim)
