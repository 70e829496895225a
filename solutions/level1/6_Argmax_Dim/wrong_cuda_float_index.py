# WRONG ON PURPOSE: the indices are right, but they are returned as a float32 tensor instead of
# int64 (torch.argmax returns int64), so the output dtype does not match. Expected verdict: incorrect.
"""Deliberately wrong argmax candidate: correct indices stored as float32."""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor argmax_rows_float(torch::Tensor x);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__global__ void argmax_rows_float_kernel(const float* __restrict__ x, float* __restrict__ out, int64_t rows, int64_t cols) {
    __shared__ float s_val[kWarps];
    __shared__ int s_idx[kWarps];
    const int64_t row = blockIdx.x;
    if (row >= rows) return;
    const float* xr = x + row * cols;

    float best_v = -INFINITY;
    int best_i = 0x7fffffff;
    for (int c = threadIdx.x; c < cols; c += kThreads) {
        const float v = xr[c];
        if (best_i == 0x7fffffff || v > best_v) { best_v = v; best_i = c; }
    }
    for (int off = 16; off > 0; off >>= 1) {
        const float ov = __shfl_xor_sync(0xffffffffu, best_v, off);
        const int oi = __shfl_xor_sync(0xffffffffu, best_i, off);
        if (ov > best_v || (ov == best_v && oi < best_i)) { best_v = ov; best_i = oi; }
    }
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) { s_val[warp] = best_v; s_idx[warp] = best_i; }
    __syncthreads();
    if (warp == 0) {
        best_v = (lane < kWarps) ? s_val[lane] : -INFINITY;
        best_i = (lane < kWarps) ? s_idx[lane] : 0x7fffffff;
        for (int off = 16; off > 0; off >>= 1) {
            const float ov = __shfl_xor_sync(0xffffffffu, best_v, off);
            const int oi = __shfl_xor_sync(0xffffffffu, best_i, off);
            if (ov > best_v || (ov == best_v && oi < best_i)) { best_v = ov; best_i = oi; }
        }
        if (lane == 0) out[row] = (float)best_i;  // the bug: float32 output instead of int64
    }
}

torch::Tensor argmax_rows_float(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "input must be float32");
    TORCH_CHECK(x.dim() == 2 && x.is_contiguous(), "input must be a contiguous 2-D tensor");
    TORCH_CHECK(x.size(1) > 0 && x.size(1) < 2147483647LL, "bad number of columns");
    const int64_t rows = x.size(0);
    const int64_t cols = x.size(1);
    auto out = torch::empty({rows}, x.options());  // float32, the bug
    if (rows == 0) return out;
    argmax_rows_float_kernel<<<(unsigned int)rows, kThreads>>>(x.data_ptr<float>(), out.data_ptr<float>(), rows, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "argmax_rows_float_kernel launch failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="kforge_wrong_argmax_float_index",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["argmax_rows_float"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        moved = x.movedim(self.dim, -1).contiguous()
        out_shape = moved.shape[:-1]
        return _ext.argmax_rows_float(moved.reshape(-1, moved.shape[-1])).reshape(out_shape)
