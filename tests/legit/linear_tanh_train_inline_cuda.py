# legit: (GPU) a training candidate with CUDA kernels of its own, built with load_inline: the
# forward's bias + tanh epilogue after cuBLAS's product, and the backward's tanh derivative fused
# with the bias gradient's column sums (one pass over grad_y), the two products left to cuBLAS.
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cuda_source = r"""
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

__global__ void bias_tanh_kernel(const float* __restrict__ pre, const float* __restrict__ bias,
                                 float* __restrict__ y, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows * cols) y[i] = tanhf(pre[i] + bias[i % cols]);
}

// One block per column chunk of 32, threads striding over rows: grad_pre = g * (1 - y^2), and
// the bias gradient as each column's sum of grad_pre.
__global__ void tanh_backward_kernel(const float* __restrict__ g, const float* __restrict__ y,
                                     float* __restrict__ grad_pre, float* __restrict__ grad_bias,
                                     int rows, int cols) {
  __shared__ float partial[8][32];
  int col = blockIdx.x * 32 + threadIdx.x;
  float sum = 0.f;
  if (col < cols) {
    for (int r = threadIdx.y; r < rows; r += 8) {
      int i = r * cols + col;
      float v = g[i] * (1.f - y[i] * y[i]);
      grad_pre[i] = v;
      sum += v;
    }
  }
  partial[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.y == 0 && col < cols) {
    float total = 0.f;
    for (int k = 0; k < 8; ++k) total += partial[k][threadIdx.x];
    grad_bias[col] = total;
  }
}

torch::Tensor bias_tanh(torch::Tensor pre, torch::Tensor bias) {
  auto y = torch::empty_like(pre);
  int rows = pre.size(0), cols = pre.size(1);
  int n = rows * cols;
  bias_tanh_kernel<<<(n + 255) / 256, 256, 0, at::cuda::getCurrentCUDAStream()>>>(
      pre.data_ptr<float>(), bias.data_ptr<float>(), y.data_ptr<float>(), rows, cols);
  return y;
}

std::vector<torch::Tensor> tanh_backward(torch::Tensor g, torch::Tensor y) {
  auto grad_pre = torch::empty_like(g);
  int rows = g.size(0), cols = g.size(1);
  auto grad_bias = torch::empty({cols}, g.options());
  dim3 block(32, 8);
  tanh_backward_kernel<<<(cols + 31) / 32, block, 0, at::cuda::getCurrentCUDAStream()>>>(
      g.data_ptr<float>(), y.data_ptr<float>(), grad_pre.data_ptr<float>(), grad_bias.data_ptr<float>(), rows, cols);
  return {grad_pre, grad_bias};
}
"""

cpp_source = """
torch::Tensor bias_tanh(torch::Tensor pre, torch::Tensor bias);
std::vector<torch::Tensor> tanh_backward(torch::Tensor g, torch::Tensor y);
"""

kernels = load_inline(name="kforge_legit_linear_tanh_train", cpp_sources=cpp_source, cuda_sources=cuda_source,
                      functions=["bias_tanh", "tanh_backward"], verbose=False)


class LinearTanh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, bias):
        y = kernels.bias_tanh((x @ weight.t()).contiguous(), bias.contiguous())
        ctx.save_for_backward(x, weight, y)
        return y

    @staticmethod
    def backward(ctx, grad_y):
        x, weight, y = ctx.saved_tensors
        grad_pre, grad_bias = kernels.tanh_backward(grad_y.contiguous(), y)
        return grad_pre @ weight, grad_pre.t() @ x, grad_bias


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LinearTanh.apply(x, self.linear.weight, self.linear.bias)
