"""
Shallow wide MLP with a fused bias + ReLU epilogue.

Each layer is one host call: the weight's transpose is taken as a zero-copy view with
torch::from_blob (explicit sizes and strides over the weight's storage, so no .t().contiguous()
copy), torch::mm does the GEMM, and one kernel adds the bias and applies ReLU. The call returns
both the activation and the pre-activation (as a training kernel would keep for backward); the
hidden layers use the activation, the output layer the pre-activation.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

mlp_cuda_source = r"""
#include <torch/extension.h>
#include <cuda_runtime.h>
#include <tuple>

__global__ void bias_relu_kernel(float* __restrict__ pre, float* __restrict__ act,
                                 const float* __restrict__ bias, int64_t rows, int64_t cols) {
    const int64_t idx = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < rows * cols) {
        const float v = pre[idx] + bias[idx % cols];
        pre[idx] = v;
        act[idx] = v > 0.0f ? v : 0.0f;
    }
}

std::tuple<torch::Tensor, torch::Tensor> linear_bias_relu(torch::Tensor x, torch::Tensor weight,
                                                          torch::Tensor bias) {
    TORCH_CHECK(x.is_cuda() && weight.is_cuda() && bias.is_cuda(), "linear_bias_relu: CUDA tensors only");
    TORCH_CHECK(x.scalar_type() == torch::kFloat32, "linear_bias_relu: float32 only");
    auto xc = x.contiguous();
    auto w = weight.contiguous();
    auto b = bias.contiguous();
    const int64_t rows = xc.size(0);
    const int64_t in_features = xc.size(1);
    const int64_t out_features = w.size(0);
    TORCH_CHECK(w.size(1) == in_features, "linear_bias_relu: shape mismatch");

    // W is (out, in) row-major; view it as W^T (in, out) without copying.
    auto w_t = torch::from_blob(w.data_ptr<float>(), {in_features, out_features},
                                {1, in_features}, w.options());
    auto pre = torch::mm(xc, w_t);
    auto act = torch::empty_like(pre);

    const int64_t total = rows * out_features;
    if (total > 0) {
        const int threads = 256;
        const int64_t blocks = (total + threads - 1) / threads;
        bias_relu_kernel<<<(unsigned int)blocks, threads>>>(
            pre.data_ptr<float>(), act.data_ptr<float>(), b.data_ptr<float>(), rows, out_features);
        cudaError_t err = cudaGetLastError();
        TORCH_CHECK(err == cudaSuccess, "bias_relu_kernel: ", cudaGetErrorString(err));
    }
    return std::make_tuple(act, pre);
}
"""

mlp_cpp_source = """
#include <tuple>
std::tuple<torch::Tensor, torch::Tensor> linear_bias_relu(torch::Tensor x, torch::Tensor weight, torch::Tensor bias);
"""

mlp_ext = load_inline(
    name="shallow_mlp_from_blob",
    cpp_sources=mlp_cpp_source,
    cuda_sources=mlp_cuda_source,
    functions=["linear_bias_relu"],
    extra_cuda_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, input_size: int, hidden_size_1: int, hidden_size_2: int, output_size: int):
        super(ModelNew, self).__init__()
        self.fc1 = nn.Linear(input_size, hidden_size_1)
        self.fc2 = nn.Linear(hidden_size_1, hidden_size_2)
        self.fc3 = nn.Linear(hidden_size_2, output_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = mlp_ext.linear_bias_relu(x, self.fc1.weight, self.fc1.bias)[0]
        x = mlp_ext.linear_bias_relu(x, self.fc2.weight, self.fc2.bias)[0]
        act, pre = mlp_ext.linear_bias_relu(x, self.fc3.weight, self.fc3.bias)
        return pre
