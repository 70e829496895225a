# expect: correct
# GPU only: relu(a + b) written the way PyTorch's extension tutorial writes kernels, which models
# copy: packed tensor accessors with RestrictPtrTraits as kernel parameters, a template kernel
# under AT_DISPATCH_FLOATING_TYPES and a plain float kernel taking an accessor too. torch defines
# RestrictPtrTraits for nvcc only; the split gives the kernels' part ATen's accessor header and
# the host part (g++) the same traits (build/cuda_split.hpp).
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = "torch::Tensor add_relu(torch::Tensor a, torch::Tensor b);"

cuda_source = r"""
#include <torch/extension.h>
#include <cuda.h>
#include <cuda_runtime.h>

template <typename scalar_t>
__global__ void add_rows_kernel(
    const torch::PackedTensorAccessor32<scalar_t, 2, torch::RestrictPtrTraits> a,
    const torch::PackedTensorAccessor32<scalar_t, 2, torch::RestrictPtrTraits> b,
    torch::PackedTensorAccessor32<scalar_t, 2, torch::RestrictPtrTraits> out) {
  const int row = blockIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < out.size(0) && col < out.size(1)) {
    const scalar_t v = a[row][col] + b[row][col];
    out[row][col] = v > scalar_t(0) ? v : scalar_t(0);
  }
}

// Clamps again what is already non-negative: a second kernel, not a template, so the host part
// names its host stub by its mangled name, accessor type included.
__global__ void clamp_rows_kernel(torch::PackedTensorAccessor32<float, 2, torch::RestrictPtrTraits> out) {
  const int row = blockIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < out.size(0) && col < out.size(1)) out[row][col] = fmaxf(out[row][col], 0.0f);
}

torch::Tensor add_relu(torch::Tensor a, torch::Tensor b) {
  TORCH_CHECK(a.dim() == 2 && a.sizes() == b.sizes(), "two matrices of one shape");
  auto out = torch::empty_like(a);
  const int threads = 256;
  const dim3 blocks((a.size(1) + threads - 1) / threads, a.size(0));
  AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "add_relu", ([&] {
    add_rows_kernel<scalar_t><<<blocks, threads>>>(
        a.packed_accessor32<scalar_t, 2, torch::RestrictPtrTraits>(),
        b.packed_accessor32<scalar_t, 2, torch::RestrictPtrTraits>(),
        out.packed_accessor32<scalar_t, 2, torch::RestrictPtrTraits>());
  }));
  if (out.scalar_type() == torch::kFloat32)
    clamp_rows_kernel<<<blocks, threads>>>(out.packed_accessor32<float, 2, torch::RestrictPtrTraits>());
  return out;
}
"""

add_relu_module = load_inline(
    name="add_relu_packed_accessor",
    cpp_sources=cpp_source,
    cuda_sources=cuda_source,
    functions=["add_relu"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return add_relu_module.add_relu(a.contiguous(), b.contiguous())
