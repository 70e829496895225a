"""
MaxPool2d (kernel 2, stride 2) as a C++/OpenMP extension.

Each (n, c) plane is independent, so we parallelize over N*C with OpenMP and do
the 2x2 window max with plain loops over contiguous NCHW memory.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

maxpool_source = """
#include <torch/extension.h>
#include <omp.h>
#include <algorithm>
#include <limits>

torch::Tensor maxpool2d_forward(torch::Tensor input, int64_t kernel_size, int64_t stride) {
    input = input.contiguous();
    const int64_t N = input.size(0), C = input.size(1), H = input.size(2), W = input.size(3);
    const int64_t OH = (H - kernel_size) / stride + 1;
    const int64_t OW = (W - kernel_size) / stride + 1;
    auto output = torch::empty({N, C, OH, OW}, input.options());
    const float* in = input.data_ptr<float>();
    float* out = output.data_ptr<float>();

    #pragma omp parallel for
    for (int64_t plane = 0; plane < N * C; ++plane) {
        const float* ip = in + plane * H * W;
        float* op = out + plane * OH * OW;
        for (int64_t oh = 0; oh < OH; ++oh) {
            for (int64_t ow = 0; ow < OW; ++ow) {
                float m = -std::numeric_limits<float>::infinity();
                for (int64_t kh = 0; kh < kernel_size; ++kh) {
                    const float* r = ip + (oh * stride + kh) * W + ow * stride;
                    for (int64_t kw = 0; kw < kernel_size; ++kw) m = std::max(m, r[kw]);
                }
                op[oh * OW + ow] = m;
            }
        }
    }
    return output;
}
"""

maxpool_cpp = "torch::Tensor maxpool2d_forward(torch::Tensor input, int64_t kernel_size, int64_t stride);"

maxpool_ext = load_inline(
    name="maxpool2d_omp",
    cpp_sources=[maxpool_cpp, maxpool_source],
    functions=["maxpool2d_forward"],
    extra_cflags=["-O3", "-fopenmp"],
    extra_ldflags=["-fopenmp"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return maxpool_ext.maxpool2d_forward(x, self.kernel_size, self.stride)
