import os
import tempfile

import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# The epilogue helper lives in its own header so other kernels can share it. load_inline only
# takes strings, so the header is written to a scratch folder at import time and that folder is
# passed as an include path.
_HEADER_NAME = "min_sub_epilogue.cuh"
_HEADER_TEXT = """
#pragma once
#include <cuda_runtime.h>

// torch.clamp(v, max=c) - c
__device__ __forceinline__ float clamp_max_sub(float v, float c) {
    return fminf(v, c) - c;
}
"""

_include_dir = tempfile.mkdtemp(prefix="min_sub_inc_")
with open(os.path.join(_include_dir, _HEADER_NAME), "w") as f:
    f.write(_HEADER_TEXT)

min_sub_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include "min_sub_epilogue.cuh"

__global__ void min_sub_kernel(const float* __restrict__ y, float* __restrict__ out,
                               int64_t n, float c) {
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = clamp_max_sub(y[i], c);
    }
}

torch::Tensor min_sub(torch::Tensor y, double c) {
    TORCH_CHECK(y.is_cuda(), "min_sub: expected a CUDA tensor");
    TORCH_CHECK(y.scalar_type() == at::kFloat, "min_sub: expected float32");
    auto yc = y.contiguous();
    auto out = torch::empty_like(yc);
    const int64_t n = yc.numel();
    if (n == 0) return out;
    const int threads = 512;
    const int64_t blocks = (n + threads - 1) / threads;
    min_sub_kernel<<<(unsigned int)blocks, threads>>>(
        yc.data_ptr<float>(), out.data_ptr<float>(), n, (float)c);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, cudaGetErrorString(err));
    return out;
}
"""

min_sub_cpp = "torch::Tensor min_sub(torch::Tensor y, double c);"

min_sub_ext = load_inline(
    name="gemm_min_sub_include_path",
    cpp_sources=min_sub_cpp,
    cuda_sources=min_sub_source,
    functions=["min_sub"],
    extra_include_paths=[_include_dir],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, constant: float):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.constant = constant

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        return min_sub_ext.min_sub(y, self.constant)
