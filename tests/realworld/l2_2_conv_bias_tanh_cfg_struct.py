import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Conv2d stays on cuDNN; the extra per-channel bias and the tanh are fused into one pass.
# Tile shape lives in a config struct so it can be tuned in one place.
bias_tanh_source = """
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

struct Cfg {
    static constexpr int kThreads = 256;
    static constexpr int kItems = 4;
};

template <int THREADS, int ITEMS>
__global__ void __launch_bounds__(THREADS)
bias_tanh_kernel(const float* __restrict__ y,
                 const float* __restrict__ bias,
                 float* __restrict__ out,
                 int64_t n, int64_t hw, int channels) {
    // each block covers THREADS * ITEMS consecutive elements, strided by THREADS for coalescing
    const int64_t base = (int64_t)blockIdx.x * (THREADS * ITEMS) + threadIdx.x;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
        const int64_t idx = base + (int64_t)k * THREADS;
        if (idx < n) {
            const int c = (int)((idx / hw) % channels);
            out[idx] = tanhf(y[idx] + bias[c]);
        }
    }
}

torch::Tensor bias_tanh(torch::Tensor y, torch::Tensor bias) {
    TORCH_CHECK(y.is_cuda(), "y must be a CUDA tensor");
    TORCH_CHECK(y.dim() == 4, "y must be NCHW");
    auto yc = y.contiguous();
    auto b = bias.contiguous().view({-1});
    const int channels = (int)yc.size(1);
    TORCH_CHECK(b.numel() == channels, "bias must have one value per channel");
    const int64_t hw = yc.size(2) * yc.size(3);
    const int64_t n = yc.numel();
    auto out = torch::empty_like(yc);
    if (n == 0) return out;

    constexpr int per_block = Cfg::kThreads * Cfg::kItems;
    const int64_t blocks = (n + per_block - 1) / per_block;
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    bias_tanh_kernel<Cfg::kThreads, Cfg::kItems><<<(unsigned int)blocks, Cfg::kThreads, 0, stream>>>(
        yc.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), n, hw, channels);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

bias_tanh_cpp = "torch::Tensor bias_tanh(torch::Tensor y, torch::Tensor bias);"

bias_tanh_ext = load_inline(
    name="conv_bias_tanh_cfg",
    cpp_sources=bias_tanh_cpp,
    cuda_sources=bias_tanh_source,
    functions=["bias_tanh"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.extra_bias = nn.Parameter(torch.randn(out_channels, 1, 1) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.conv(x)
        return bias_tanh_ext.bias_tanh(y, self.extra_bias)
