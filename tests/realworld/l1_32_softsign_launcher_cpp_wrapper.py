"""
Softsign x / (1 + |x|) in one pass instead of eager PyTorch's three kernels.

The .cu side is plain CUDA: the kernel and a launcher taking raw pointers and a stream. The torch
wrapper (tensor checks, allocation, stream lookup) lives in the C++ source and calls the launcher.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softsign_cuda_src = r"""
#include <cstdint>
#include <cuda_runtime.h>

__global__ void softsign_kernel(const float* __restrict__ x, float* __restrict__ y, int64_t n) {
    const int64_t stride = (int64_t)blockDim.x * gridDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        const float v = x[i];
        y[i] = v / (1.0f + fabsf(v));
    }
}

void launch_softsign(const float* x, float* y, int64_t n, cudaStream_t stream) {
    if (n <= 0) return;
    const int threads = 512;
    int64_t blocks = (n + threads - 1) / threads;
    if (blocks > 132 * 32) blocks = 132 * 32;  // H200: 132 SMs, grid-stride loop covers the rest
    softsign_kernel<<<(unsigned int)blocks, threads, 0, stream>>>(x, y, n);
}
"""

softsign_cpp_src = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

void launch_softsign(const float* x, float* y, int64_t n, cudaStream_t stream);

torch::Tensor softsign_forward(torch::Tensor x) {
    TORCH_CHECK(x.is_cuda(), "softsign_forward: x must live on the GPU");
    TORCH_CHECK(x.scalar_type() == at::kFloat, "softsign_forward: only float32 is supported");
    auto xc = x.contiguous();
    auto y = torch::empty_like(xc);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    launch_softsign(xc.data_ptr<float>(), y.data_ptr<float>(), xc.numel(), stream);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "softsign launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

softsign_ext = load_inline(
    name="softsign_launcher",
    cpp_sources=softsign_cpp_src,
    cuda_sources=softsign_cuda_src,
    functions=["softsign_forward"],
    extra_cuda_cflags=["-O3"],
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softsign_ext.softsign_forward(x)
