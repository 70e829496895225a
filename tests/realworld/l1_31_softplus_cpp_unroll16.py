"""
Softplus(beta=2, threshold=20), C++ CPU kernel.

softplus(x) = log1p(exp(beta * x)) / beta, and x itself where beta * x > threshold
(the linear regime, where exp would overflow / the log1p is exact anyway).

The main loop is unrolled by 16 (one AVX-512 register of floats) so the compiler
emits a straight block of vector code with no loop-carried branches.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

softplus_source = """
#include <torch/extension.h>
#include <cmath>

#define UNROLL 16

torch::Tensor softplus_forward(torch::Tensor x, double beta, double threshold) {
    auto input = x.contiguous();
    auto output = torch::empty_like(input);
    const float* __restrict__ in = input.data_ptr<float>();
    float* __restrict__ out = output.data_ptr<float>();
    const int64_t n = input.numel();
    const float b = static_cast<float>(beta);
    const float inv_b = 1.0f / b;
    const float th = static_cast<float>(threshold);

    const int64_t n_vec = n / UNROLL;
    for (int64_t v = 0; v < n_vec; ++v) {
        const int64_t base = v * UNROLL;
        #pragma GCC unroll 16
        for (int j = 0; j < UNROLL; ++j) {
            const float xv = in[base + j];
            const float bx = xv * b;
            out[base + j] = bx > th ? xv : std::log1p(std::exp(bx)) * inv_b;
        }
    }
    return output;
}
"""

softplus_ext = load_inline(
    name="softplus_unroll16",
    cpp_sources=softplus_source,
    functions=["softplus_forward"],
    extra_cflags=["-O3", "-funroll-loops"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self, beta: float, threshold: float):
        super(ModelNew, self).__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softplus_ext.softplus_forward(x, self.beta, self.threshold)


ROWS = 24000
COLS = 33333
BETA = 2.0
THRESHOLD = 20.0


def get_inputs():
    x = torch.randn(ROWS, COLS) * 4.0
    return [x]


def get_init_inputs():
    return [BETA, THRESHOLD]
