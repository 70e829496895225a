# expect: correct
# GPU only: relu(a + b) with its coefficients in constant memory, filled from the host by
# cudaMemcpyToSymbol before each launch, as models write convolution weights. nvcc keeps the
# constant's host-side shadow local to the kernels' object; the split reaches it through an
# address function the kernels' part defines (build/cuda_split.hpp).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor add_relu(torch::Tensor a, torch::Tensor b);"

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

#define NUM_COEFFS 2
__constant__ float c_coeffs[NUM_COEFFS];  // scale of the sum, then an offset

__global__ void add_relu_const_kernel(const float* __restrict__ a, const float* __restrict__ b,
                                      float* __restrict__ out, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaxf(c_coeffs[0] * (a[i] + b[i]) + c_coeffs[1], 0.0f);
}

torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.scalar_type() == torch::kFloat32, "float32 only");
  a = a.contiguous();
  b = b.contiguous();
  auto out = torch::empty_like(a);
  const float coeffs[NUM_COEFFS] = {1.0f, 0.0f};
  cudaMemcpyToSymbol(c_coeffs, coeffs, sizeof(coeffs));
  const int64_t n = a.numel();
  const int threads = 256;
  add_relu_const_kernel<<<(n + threads - 1) / threads, threads>>>(
      a.data_ptr<float>(), b.data_ptr<float>(), out.data_ptr<float>(), n);
  return out;
}
"""

add_relu_module = load_inline(
    name="add_relu_constant_coeffs",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["add_relu"],
    extra_cuda_cflags=["-O3"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return add_relu_module.add_relu(a, b)
