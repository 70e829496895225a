# expect: runtime_error
# GPU only: the kernel stores through an address in the never-mapped first page, far outside every buffer -> illegal memory access.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

_CPP_SRC = r"""
torch::Tensor add_relu_bad_store(torch::Tensor a, torch::Tensor b);
"""

# The output pointer is shifted down by its own address (plus a small offset), so every store
# lands in the first page of the address space, which is never mapped on host or device. The
# offset is a runtime kernel argument, so the compiler cannot see or drop the bad store. The
# fault is asynchronous; the wrapper synchronises and raises it as a RuntimeError right away.
_CUDA_SRC = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <stdint.h>

__global__ void add_relu_bad_store_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                          float* out, int64_t n, int64_t bad_offset) {
    const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const float v = a[i] + b[i];
        out[i + bad_offset] = v < 0.0f ? 0.0f : v;  // the bug: far out of bounds
    }
}

torch::Tensor add_relu_bad_store(torch::Tensor a, torch::Tensor b) {
    TORCH_CHECK(a.is_cuda() && b.is_cuda(), "inputs must be CUDA tensors");
    TORCH_CHECK(a.scalar_type() == torch::kFloat32 && b.scalar_type() == torch::kFloat32, "inputs must be float32");
    TORCH_CHECK(a.sizes() == b.sizes() && a.is_contiguous() && b.is_contiguous(), "inputs must match and be contiguous");
    auto out = torch::empty_like(a);
    const int64_t n = a.numel();
    if (n == 0) return out;
    float* out_ptr = out.data_ptr<float>();
    // Element offset that moves out_ptr to byte address 256.
    const int64_t bad_offset = -(int64_t)(reinterpret_cast<uintptr_t>(out_ptr) / sizeof(float)) + 64;
    const int threads = 256;
    const int64_t blocks = (n + threads - 1) / threads;
    add_relu_bad_store_kernel<<<(unsigned int)blocks, threads>>>(a.data_ptr<float>(), b.data_ptr<float>(),
                                                                 out_ptr, n, bad_offset);
    cudaError_t err = cudaGetLastError();
    TORCH_CHECK(err == cudaSuccess, "add_relu_bad_store_kernel launch failed: ", cudaGetErrorString(err));
    err = cudaDeviceSynchronize();
    TORCH_CHECK(err == cudaSuccess, "add_relu_bad_store_kernel failed: ", cudaGetErrorString(err));
    return out;
}
"""

_ext = load_inline(
    name="kforge_test_cuda_illegal_address",
    cpp_sources=_CPP_SRC,
    cuda_sources=_CUDA_SRC,
    functions=["add_relu_bad_store"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return _ext.add_relu_bad_store(a.contiguous(), b.contiguous())
