import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Argmax over dim=1: one block per row.
# Each thread scans a strided slice keeping (value, index); the pairs are then
# reduced with warp shuffles and a small shared-memory stage across warps.
# Ties resolve to the smallest index, like torch.argmax.
argmax_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <cfloat>

#define THREADS 256

static __device__ __forceinline__ void argmax_combine(float& v, int& i, float ov, int oi) {
    if (ov > v || (ov == v && oi < i)) {
        v = ov;
        i = oi;
    }
}

__global__ void argmax_rows_kernel(const float* __restrict__ x, int64_t* __restrict__ out, int cols) {
    __shared__ float s_val[THREADS / 32];
    __shared__ int s_idx[THREADS / 32];
    const float* row = x + (size_t)blockIdx.x * cols;

    float best = -FLT_MAX;
    int best_i = 0x7fffffff;
    for (int c = threadIdx.x; c < cols; c += THREADS) {
        argmax_combine(best, best_i, row[c], c);
    }

    for (int off = 16; off > 0; off >>= 1) {
        float ov = __shfl_down_sync(0xffffffff, best, off);
        int oi = __shfl_down_sync(0xffffffff, best_i, off);
        argmax_combine(best, best_i, ov, oi);
    }
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) {
        s_val[warp] = best;
        s_idx[warp] = best_i;
    }
    __syncthreads();
    if (warp == 0) {
        best = lane < THREADS / 32 ? s_val[lane] : -FLT_MAX;
        best_i = lane < THREADS / 32 ? s_idx[lane] : 0x7fffffff;
        for (int off = 16; off > 0; off >>= 1) {
            float ov = __shfl_down_sync(0xffffffff, best, off);
            int oi = __shfl_down_sync(0xffffffff, best_i, off);
            argmax_combine(best, best_i, ov, oi);
        }
        if (lane == 0) out[blockIdx.x] = (int64_t)best_i;
    }
}

torch::Tensor argmax_cuda(torch::Tensor x, int64_t dim) {
    TORCH_CHECK(x.dim() == 2 && dim == 1, "argmax_cuda: 2D input, dim=1 only");
    auto xc = x.contiguous();
    const int rows = xc.size(0), cols = xc.size(1);
    auto out = torch::empty({rows}, xc.options().dtype(torch::kLong));
    argmax_rows_kernel<<<rows, THREADS>>>(xc.data_ptr<float>(), out.data_ptr<int64_t>(), cols);
    return out;
}
"""

argmax_cpp_source = "torch::Tensor argmax_cuda(torch::Tensor x, int64_t dim);"

argmax_ext = load_inline(
    name="argmax_warp",
    cpp_sources=argmax_cpp_source,
    cuda_sources=argmax_source,
    functions=["argmax_cuda"],
    extra_cuda_cflags=["-gencode=arch=compute_90,code=sm_90", "-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return argmax_ext.argmax_cuda(x, self.dim)
