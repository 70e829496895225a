import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Minimal ReLU kernel: one thread per element, 512 threads per block.
relu_src = """
#include <torch/extension.h>

__global__ void relu_kernel(const float* __restrict__ x, float* __restrict__ y) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = fmaxf(x[i], 0.0f);
}

torch::Tensor relu_forward(torch::Tensor x) {
    auto y = torch::empty_like(x);
    const int n = x.numel();
    const int threads = 512;
    const int blocks = (n + threads - 1) / threads;
    relu_kernel<<<blocks, threads>>>(x.data_ptr<float>(), y.data_ptr<float>());
    return y;
}
"""

relu_cpp_src = "torch::Tensor relu_forward(torch::Tensor x);"

relu_mod = load_inline(
    name="relu_minimal",
    cpp_sources=relu_cpp_src,
    cuda_sources=relu_src,
    functions=["relu_forward"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x):
        return relu_mod.relu_forward(x.contiguous())
