import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

# Linear -> Mish -> Mish. cuBLAS does the GEMM (through F.linear); the two Mish applications are
# fused into one elementwise pass so the GEMM output is read once and written once.

mish_kernels = """
#include <cuda_runtime.h>
#include <math.h>

__device__ __forceinline__ float mish_f(float v) {
    // softplus with PyTorch's overflow guard, then tanh
    float sp = v > 20.0f ? v : log1pf(expf(v));
    return v * tanhf(sp);
}

__global__ void double_mish_kernel(const float* __restrict__ in, float* __restrict__ out, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long step = (long long)blockDim.x * gridDim.x;
    while (i < n) {
        out[i] = mish_f(mish_f(in[i]));
        i += step;
    }
}
"""

mish_host = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

torch::Tensor double_mish(torch::Tensor y) {
    TORCH_CHECK(y.is_cuda(), "double_mish: expected a CUDA tensor");
    TORCH_CHECK(y.dtype() == torch::kFloat32, "double_mish: expected float32");
    auto yc = y.contiguous();
    auto out = torch::empty_like(yc);
    long long n = yc.numel();
    if (n == 0) return out;
    int threads = 256;
    long long want = (n + threads - 1) / threads;
    int blocks = want > 8192 ? 8192 : (int)want;
    auto stream = at::cuda::getCurrentCUDAStream();
    double_mish_kernel<<<blocks, threads, 0, stream>>>(yc.data_ptr<float>(), out.data_ptr<float>(), n);
    AT_CUDA_CHECK(cudaGetLastError());
    return out;
}
"""

mish_cpp = [
    "#include <torch/extension.h>",
    "torch::Tensor double_mish(torch::Tensor y);",
]

fused_mish = load_inline(
    name="fused_double_mish_list",
    cpp_sources=mish_cpp,
    cuda_sources=[mish_kernels, mish_host],
    functions=["double_mish"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        return fused_mish.double_mish(y)
