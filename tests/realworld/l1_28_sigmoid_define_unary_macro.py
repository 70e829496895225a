import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# A small macro stamps out elementwise kernels; only sigmoid is needed here, softsign is kept
# around for reuse.
unary_source = """
#include <torch/extension.h>
#include <cuda_runtime.h>

#define DEFINE_UNARY_KERNEL(NAME, EXPR)                                               \
__global__ void NAME##_kernel(const float* __restrict__ in, float* __restrict__ out,  \
                              int64_t n) {                                            \
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;                       \
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;                           \
    for (; i < n; i += stride) {                                                      \
        const float x = in[i];                                                        \
        out[i] = (EXPR);                                                              \
    }                                                                                 \
}

DEFINE_UNARY_KERNEL(sigmoid, 1.0f / (1.0f + expf(-x)))
DEFINE_UNARY_KERNEL(softsign, x / (1.0f + fabsf(x)))

torch::Tensor sigmoid_cuda(torch::Tensor input) {
    TORCH_CHECK(input.is_cuda(), "input must be a CUDA tensor");
    TORCH_CHECK(input.scalar_type() == torch::kFloat32, "input must be float32");
    auto x = input.contiguous();
    auto out = torch::empty_like(x);
    const int64_t n = x.numel();
    if (n == 0) return out;

    const int block_size = 256;
    int64_t num_blocks = (n + block_size - 1) / block_size;
    if (num_blocks > 65535 * 8) num_blocks = 65535 * 8;
    sigmoid_kernel<<<(int)num_blocks, block_size>>>(x.data_ptr<float>(), out.data_ptr<float>(), n);
    return out;
}
"""

unary_cpp_source = "torch::Tensor sigmoid_cuda(torch::Tensor input);"

unary_ops = load_inline(
    name="unary_macro_ops",
    cpp_sources=unary_cpp_source,
    cuda_sources=unary_source,
    functions=["sigmoid_cuda"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.unary_ops = unary_ops

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.unary_ops.sigmoid_cuda(x)
