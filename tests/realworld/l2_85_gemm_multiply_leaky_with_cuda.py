import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.cpp_extension import load_inline

# The GEMM (K = 5120) goes to cuBLAS through torch::mm; the per-feature multiply and
# LeakyReLU are fused into one elementwise kernel on the GEMM output.
cuda_src = """
#include <torch/extension.h>
#include <cuda_runtime.h>

torch::Tensor mm_nobias(torch::Tensor x, torch::Tensor weight) {
    return torch::mm(x, weight.t());
}

__global__ void mul_leaky_relu_kernel(const float* __restrict__ y, const float* __restrict__ mult,
                                      float* __restrict__ out, int rows, int cols, float slope) {
    const int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < rows * cols) {
        const float v = y[idx] * mult[idx % cols];
        out[idx] = v >= 0.0f ? v : v * slope;
    }
}

torch::Tensor mul_leaky_relu(torch::Tensor y, torch::Tensor multiplier, double negative_slope) {
    TORCH_CHECK(y.is_cuda() && multiplier.is_cuda(), "expected CUDA tensors");
    auto yc = y.contiguous();
    auto m = multiplier.contiguous();
    auto out = torch::empty_like(yc);
    const int rows = yc.size(0);
    const int cols = yc.size(1);
    const int threads = 256;
    const int blocks = (rows * cols + threads - 1) / threads;
    mul_leaky_relu_kernel<<<blocks, threads>>>(yc.data_ptr<float>(), m.data_ptr<float>(), out.data_ptr<float>(),
                                               rows, cols, (float)negative_slope);
    return out;
}
"""

cpp_src = """
torch::Tensor mm_nobias(torch::Tensor x, torch::Tensor weight);
torch::Tensor mul_leaky_relu(torch::Tensor y, torch::Tensor multiplier, double negative_slope);
"""

fused_ops = load_inline(
    name="gemm_mul_leaky",
    cpp_sources=cpp_src,
    cuda_sources=cuda_src,
    functions=["mm_nobias", "mul_leaky_relu"],
    with_cuda=True,
    extra_cuda_cflags=["-O3", "--use_fast_math"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int, negative_slope: float):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features, bias=False)
        self.multiplier = nn.Parameter(torch.randn(out_features))
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = fused_ops.mm_nobias(x, self.linear.weight)
        return fused_ops.mul_leaky_relu(y, self.multiplier, self.negative_slope)


BATCH = 4096
IN_FEATURES = 5120
OUT_FEATURES = 2560
NEGATIVE_SLOPE = 0.1


def get_inputs():
    return [torch.randn(BATCH, IN_FEATURES).cuda()]


def get_init_inputs():
    return [IN_FEATURES, OUT_FEATURES, NEGATIVE_SLOPE]
