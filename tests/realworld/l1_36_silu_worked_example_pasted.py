import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

TOKENS = 65536
INTERMEDIATE = 11008


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.silu(x)


# Define the custom CUDA kernel for SiLU (x * sigmoid(x)) in a single pass
silu_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

__global__ void silu_kernel(const float* x, float* out, int size) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < size) {
        float v = x[idx];
        out[idx] = v / (1.0f + expf(-v));
    }
}

torch::Tensor silu_cuda(torch::Tensor x) {
    auto size = x.numel();
    auto out = torch::empty_like(x);

    const int block_size = 256;
    const int num_blocks = (size + block_size - 1) / block_size;

    silu_kernel<<<num_blocks, block_size>>>(x.data_ptr<float>(), out.data_ptr<float>(), size);

    return out;
}
"""

silu_cpp_source = "torch::Tensor silu_cuda(torch::Tensor x);"

# Compile the inline CUDA code for SiLU
silu = load_inline(
    name="silu",
    cpp_sources=silu_cpp_source,
    cuda_sources=silu_source,
    functions=["silu_cuda"],
    verbose=True,
    extra_cflags=[""],
    extra_ldflags=[""],
)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.silu = silu

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.silu.silu_cuda(x)


def get_inputs():
    x = torch.randn(TOKENS, INTERMEDIATE).cuda() * 2.0
    return [x]


def get_init_inputs():
    return []
