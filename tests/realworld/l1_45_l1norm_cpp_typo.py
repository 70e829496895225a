import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# L1 normalisation over the channel dim of an NCHW tensor, times the channel count.
# For every (n, h, w) we sum |x| over C (stride H*W), then scale the C values.
l1norm_source = """
#include <torch/extension.h>
#include <cmath>
#include <algorithm>

torch::Tensor l1_normalize_channels(torch::Tensor x, int64_t channels) {
    auto input = x.contiguous();
    const int64_t N = input.size(0);
    const int64_t C = input.size(1);
    const int64_t HW = input.size(2) * input.size(3);
    auto output = torch::empty_like(input);
    const float* in = input.data_ptr<float>();
    float* out = output.data_ptr<float>();
    const float eps = 1e-12f;

    for (int64_t n = 0; n < N; ++n) {
        const float* xn = in + n * C * HW;
        float* yn = out + n * C * HW;
        for (int64_t p = 0; p < HW; ++p) {
            float norm = 0.0f;
            for (int64_t c = 0; c < C; ++c) norm += std::fabs(xn[c * HW + p]);
            const float scale = static_cast<float>(channels) / std::max(norm, eps)
            for (int64_t c = 0; c < C; ++c) yn[c * HW + p] = xn[c * HW + p] * scale;
        }
    }
    return output;
}
"""

l1norm = load_inline(
    name="l1norm_channels",
    cpp_sources=l1norm_source,
    functions=["l1_normalize_channels"],
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super(ModelNew, self).__init__()
        self.channels = channels

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return l1norm.l1_normalize_channels(x, self.channels)
