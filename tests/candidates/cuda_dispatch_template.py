# expect: correct
# GPU only: relu(a + b) the way models write it for KernelBench: a template kernel launched from an
# AT_DISPATCH_FLOATING_TYPES lambda, in an anonymous namespace, with a static helper kernel and a
# block size given as a template argument. The build splits it (build/cuda_split.hpp): each type's
# instance is reached through an address function the device part defines.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor add_relu(torch::Tensor a, torch::Tensor b);"

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <c10/cuda/CUDAException.h>

#define THREADS 256

namespace {
template <typename scalar_t>
__global__ void add_relu_kernel(const scalar_t* __restrict__ a, const scalar_t* __restrict__ b,
                                scalar_t* __restrict__ out, int64_t n) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const scalar_t v = a[i] + b[i];
        out[i] = v > scalar_t(0) ? v : scalar_t(0);
    }
}
}  // namespace

template <int BLOCK>
static __global__ void zero_tail_kernel(float* out, int64_t from, int64_t n) {
    const int64_t i = from + (int64_t)blockIdx.x * BLOCK + threadIdx.x;
    if (i < n) out[i] = out[i];  // touches nothing: a second launch site of a second template
}

torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    a = a.contiguous();
    b = b.contiguous();
    auto out = torch::empty_like(a);
    const int64_t n = a.numel();
    const int64_t blocks = (n + THREADS - 1) / THREADS;
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "add_relu", ([&] {
        add_relu_kernel<scalar_t><<<blocks, THREADS>>>(
            a.data_ptr<scalar_t>(), b.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
    }));
    if (out.scalar_type() == torch::kFloat32)
        zero_tail_kernel<THREADS><<<1, THREADS>>>(out.data_ptr<float>(), n, n);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
    return out;
}
"""

add_relu_module = load_inline(
    name="add_relu_dispatch",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["add_relu"],
    verbose=True,
    extra_cflags=["-O3"],
    extra_cuda_cflags=["-O3", "--use_fast_math"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.add_relu = add_relu_module

    def forward(self, a, b):
        return self.add_relu.add_relu(a, b)
