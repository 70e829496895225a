# expect: correct
# GPU only: relu(a + b) through a template kernel, dispatched by hand on the dtype, each branch
# naming its element type with a local alias of the same name (`using elem_t = float;`, then
# `= double;`). The splitter reads a local alias's definition for the instance it makes, and here
# it reads the first for both launches: the host part then takes an instance (double) that the
# kernels' part does not define. Such a split links and would fail at import, so the build checks
# the split's symbols and builds it whole instead (build/inline_build.cpp).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor add_relu(torch::Tensor a, torch::Tensor b);"

cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>

template <typename T>
__global__ void add_relu_typed_kernel(const T* __restrict__ a, const T* __restrict__ b, T* __restrict__ out, int64_t n) {
  const int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i] > T(0) ? a[i] + b[i] : T(0);
}

torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
  a = a.contiguous();
  b = b.contiguous();
  auto out = torch::empty_like(a);
  const int64_t n = a.numel();
  const unsigned blocks = (unsigned)((n + 255) / 256);
  if (a.scalar_type() == at::kFloat) {
    using elem_t = float;
    add_relu_typed_kernel<elem_t><<<blocks, 256>>>(a.data_ptr<elem_t>(), b.data_ptr<elem_t>(), out.data_ptr<elem_t>(), n);
  } else {
    using elem_t = double;
    add_relu_typed_kernel<elem_t><<<blocks, 256>>>(a.data_ptr<elem_t>(), b.data_ptr<elem_t>(), out.data_ptr<elem_t>(), n);
  }
  return out;
}
"""

add_relu_module = load_inline(
    name="add_relu_alias_in_two_scopes",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["add_relu"],
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return add_relu_module.add_relu(a, b)
