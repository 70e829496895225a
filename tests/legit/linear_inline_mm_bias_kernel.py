# legit (GPU): a load_inline extension: the GEMM through torch::mm in C++, then a CUDA kernel of
# its own adding the bias in place on the fresh GEMM result, launched on torch's current stream.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor linear_mm_bias(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);
"""

_CUDA_SRC = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <cuda_runtime.h>

__global__ void add_bias_rows(float* __restrict__ y, const float* __restrict__ bias, int64_t total, int64_t cols) {
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        y[i] += bias[i % cols];
    }
}

torch::Tensor linear_mm_bias(torch::Tensor x, torch::Tensor weight, torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "linear_mm_bias: tensors must be on CUDA");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
                bias.scalar_type() == torch::kFloat32, "linear_mm_bias: tensors must be float32");
    TORCH_CHECK(x.dim() == 2 && weight.dim() == 2 && bias.dim() == 1, "linear_mm_bias: expects x[B, I], W[O, I], b[O]");
    TORCH_CHECK(x.size(1) == weight.size(1) && weight.size(0) == bias.size(0), "linear_mm_bias: shape mismatch");
    auto y = torch::mm(x, weight.t()).contiguous();  // a fresh tensor, ours to update in place
    auto bc = bias.contiguous();
    const int64_t total = y.numel();
    const int64_t cols = y.size(1);
    if (total == 0) return y;
    const int threads = 256;
    int64_t blocks = (total + threads - 1) / threads;
    if (blocks > 65535LL * 16) blocks = 65535LL * 16;
    add_bias_rows<<<(unsigned int)blocks, threads, 0, at::cuda::getCurrentCUDAStream()>>>(
        y.data_ptr<float>(), bc.data_ptr<float>(), total, cols);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "add_bias_rows launch failed: ", cudaGetErrorString(err));
    return y;
}
"""

_ext = load_inline(
    name="kforge_legit_linear_mm_bias_kernel",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["linear_mm_bias"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _ext.linear_mm_bias(x, self.linear.weight, self.linear.bias)
