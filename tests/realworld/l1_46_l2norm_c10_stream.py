"""
F.normalize(x, p=2, dim=-1) for head_dim = 128.

A row is exactly 128 floats = 32 lanes x float4, so one warp normalises one row with
a single vector load per lane and a butterfly shuffle for the sum of squares.
Launched on PyTorch's current stream.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

l2norm_source = """
#include <torch/extension.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime.h>

__global__ void l2norm_rows_128(const float4* __restrict__ x, float4* __restrict__ y, long rows, float eps) {
    const long row = (long)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int lane = threadIdx.x & 31;
    if (row >= rows) return;
    const float4 v = x[row * 32 + lane];
    float ss = v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    #pragma unroll
    for (int o = 16; o > 0; o >>= 1) ss += __shfl_xor_sync(0xffffffff, ss, o);
    const float inv = 1.0f / fmaxf(sqrtf(ss), eps);
    y[row * 32 + lane] = make_float4(v.x * inv, v.y * inv, v.z * inv, v.w * inv);
}

torch::Tensor l2_normalize_lastdim(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.size(-1) == 128, "kernel is specialised for a last dim of 128");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    const long rows = xc.numel() / 128;
    const int threads = 256;  // 8 rows per block
    const long blocks = (rows + 7) / 8;
    auto stream = c10::cuda::getCurrentCUDAStream();
    l2norm_rows_128<<<blocks, threads, 0, stream.stream()>>>(
        reinterpret_cast<const float4*>(xc.data_ptr<float>()),
        reinterpret_cast<float4*>(y.data_ptr<float>()), rows, 1e-12f);
    return y;
}
"""

l2norm_cpp_source = "torch::Tensor l2_normalize_lastdim(torch::Tensor x);"

l2norm_ext = load_inline(
    name="l2norm_head128",
    cpp_sources=l2norm_cpp_source,
    cuda_sources=l2norm_source,
    functions=["l2_normalize_lastdim"],
    extra_cuda_cflags=["-O3", "-arch=sm_90"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.size(-1) != 128:
            return F.normalize(x, p=2.0, dim=-1)
        return l2norm_ext.l2_normalize_lastdim(x)
