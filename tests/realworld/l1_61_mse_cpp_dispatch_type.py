import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

# Per-sample MSE: mean over features of (pred - target)^2, fused into one pass so the
# (BATCH x FEATURES) squared-error tensor is never materialized.
mse_source = """
#include <torch/extension.h>

template <typename scalar_t>
void mse_per_sample_kernel(const scalar_t* pred, const scalar_t* target, scalar_t* out,
                           int64_t batch, int64_t features) {
    for (int64_t b = 0; b < batch; ++b) {
        double acc = 0.0;
        const scalar_t* p = pred + b * features;
        const scalar_t* t = target + b * features;
        for (int64_t f = 0; f < features; ++f) {
            const double d = static_cast<double>(p[f]) - static_cast<double>(t[f]);
            acc += d * d;
        }
        out[b] = static_cast<scalar_t>(acc / features);
    }
}

torch::Tensor mse_per_sample(torch::Tensor predictions, torch::Tensor targets) {
    auto pred = predictions.contiguous();
    auto targ = targets.contiguous();
    auto out = torch::empty({pred.size(0)}, pred.options());
    AT_DISPATCH_FLOATING_TYPES(pred.type(), "mse_per_sample", ([&] {
        mse_per_sample_kernel<scalar_t>(
            pred.data<scalar_t>(), targ.data<scalar_t>(), out.data<scalar_t>(),
            pred.size(0), pred.size(1));
    }));
    return out;
}
"""

mse_cpp = load_inline(
    name="mse_per_sample_cpp",
    cpp_sources=mse_source,
    functions=["mse_per_sample"],
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return mse_cpp.mse_per_sample(predictions, targets)
