import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

leaky_relu_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <ATen/cuda/CUDAContext.h>

template <typename scalar_t>
__global__ void leaky_relu_kernel(const scalar_t* __restrict__ x,
                                  scalar_t* __restrict__ y,
                                  const scalar_t negative_slope,
                                  const int64_t numel) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < numel) {
        const scalar_t v = x[i];
        y[i] = v > scalar_t(0) ? v : v * negative_slope;
    }
}

torch::Tensor leaky_relu_cuda(torch::Tensor x, double negative_slope) {
    TORCH_CHECK(x.is_cuda(), "x must be a CUDA tensor");
    TORCH_CHECK(x.is_contiguous(), "x must be contiguous");
    auto y = torch::empty_like(x);
    const int64_t numel = x.numel();
    const int threads = 512;
    const int64_t blocks = (numel + threads - 1) / threads;
    auto stream = at::cuda::getCurrentCUDAStream();

    AT_DISPATCH_FLOATING_TYPES_AND_HALF(x.scalar_type(), "leaky_relu_cuda", ([&] {
        leaky_relu_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
            x.data_ptr<scalar_t>(), y.data_ptr<scalar_t>(),
            static_cast<scalar_t>(negative_slope), numel);
    }));
    return y;
}
"""

leaky_relu_cpp_source = "torch::Tensor leaky_relu_cuda(torch::Tensor x, double negative_slope);"

leaky_relu_ext = load_inline(
    name="leaky_relu_half",
    cpp_sources=leaky_relu_cpp_source,
    cuda_sources=leaky_relu_source,
    functions=["leaky_relu_cuda"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    """LeakyReLU with a custom kernel that supports fp32, fp64 and fp16 inputs."""

    def __init__(self, negative_slope: float):
        super(ModelNew, self).__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return leaky_relu_ext.leaky_relu_cuda(x.contiguous(), self.negative_slope)
