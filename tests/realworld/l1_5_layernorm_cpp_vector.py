"""
LayerNorm over the last dimension as a CPU C++ extension.

Per row: mean, then variance around the mean (two passes, more stable than E[x^2] -
E[x]^2), then normalize and apply the affine weight/bias. The per-row statistics are
kept in std::vectors so the normalization loop is a clean streaming pass.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

cpp_source = """
#include <torch/extension.h>
#include <vector>
#include <cmath>

torch::Tensor layer_norm_forward(torch::Tensor x, torch::Tensor weight, torch::Tensor bias, double eps) {
    auto input = x.contiguous();
    const int64_t hidden = input.size(-1);
    const int64_t rows = input.numel() / hidden;
    auto out = at::empty_like(input);

    const float* px = input.data_ptr<float>();
    const float* pw = weight.contiguous().data_ptr<float>();
    const float* pb = bias.contiguous().data_ptr<float>();
    float* po = out.data_ptr<float>();

    std::vector<float> mean(rows), rstd(rows);
    for (int64_t r = 0; r < rows; ++r) {
        const float* row = px + r * hidden;
        double s = 0.0;
        for (int64_t i = 0; i < hidden; ++i) s += row[i];
        const double mu = s / hidden;
        double v = 0.0;
        for (int64_t i = 0; i < hidden; ++i) {
            const double d = row[i] - mu;
            v += d * d;
        }
        mean[r] = static_cast<float>(mu);
        rstd[r] = static_cast<float>(1.0 / std::sqrt(v / hidden + eps));
    }

    for (int64_t r = 0; r < rows; ++r) {
        const float* row = px + r * hidden;
        float* orow = po + r * hidden;
        const float mu = mean[r];
        const float rs = rstd[r];
        for (int64_t i = 0; i < hidden; ++i) {
            orow[i] = (row[i] - mu) * rs * pw[i] + pb[i];
        }
    }
    return out;
}
"""

layer_norm_cpp = load_inline(
    name="layer_norm_cpp",
    cpp_sources=cpp_source,
    functions=["layer_norm_forward"],
    extra_cflags=["-O3", "-march=native"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super(ModelNew, self).__init__()
        self.norm = nn.LayerNorm(hidden)
        # same perturbation as the reference so parameters match
        with torch.no_grad():
            self.norm.weight.add_(torch.randn(hidden) * 0.1)
            self.norm.bias.add_(torch.randn(hidden) * 0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layer_norm_cpp.layer_norm_forward(x, self.norm.weight, self.norm.bias, self.norm.eps)


BATCH = 65536
HIDDEN = 8192


def get_inputs():
    x = torch.randn(BATCH, HIDDEN) * 2.0 + 0.5
    return [x]


def get_init_inputs():
    return [HIDDEN]
