"""
ReLU as a C++ extension with OpenMP.

The input is a 16k x 16k fp32 matrix, so this is purely memory bound: one pass that
reads x and writes max(x, 0), split across cores with `#pragma omp parallel for`.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

relu_cpp_source = """
#include <torch/extension.h>
#include <omp.h>

torch::Tensor relu_forward(torch::Tensor x) {
    TORCH_CHECK(x.dtype() == torch::kFloat32, "relu_forward: expected float32");
    auto input = x.contiguous();
    auto output = torch::empty_like(input);

    const float* in_ptr = input.data_ptr<float>();
    float* out_ptr = output.data_ptr<float>();
    const int64_t n = input.numel();

    #pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        const float v = in_ptr[i];
        out_ptr[i] = v > 0.0f ? v : 0.0f;
    }
    return output;
}
"""

relu_module = load_inline(
    name="relu_cpp_omp",
    cpp_sources=relu_cpp_source,
    functions=["relu_forward"],
    extra_cflags=["-O3", "-fopenmp"],
    extra_ldflags=["-fopenmp"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.relu_module = relu_module

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.relu_module.relu_forward(x)
