"""
C = A.T @ B with a hand-written C++ GEMM.

A is stored K x M. We hand the kernel A.T (an M x K view) so that the kernel can use
the standard row-major (M x K) @ (K x N) loop nest. The i-k-j loop order keeps the
innermost loop streaming over contiguous rows of B and C, which the compiler
vectorizes at -O3.
"""
import torch
import torch.nn as nn
from torch.utils.cpp_extension import load_inline

matmul_source = """
#include <torch/extension.h>

// a: M x K (row-major), b: K x N (row-major) -> c: M x N
torch::Tensor matmul_rowmajor(torch::Tensor a, torch::Tensor b) {
    const int64_t M = a.size(0);
    const int64_t K = a.size(1);
    const int64_t N = b.size(1);
    TORCH_CHECK(b.size(0) == K, "inner dimensions must match");
    auto c = torch::zeros({M, N}, a.options());
    const float* pa = a.data_ptr<float>();
    const float* pb = b.data_ptr<float>();
    float* pc = c.data_ptr<float>();
    for (int64_t i = 0; i < M; ++i) {
        float* crow = pc + i * N;
        for (int64_t k = 0; k < K; ++k) {
            const float aik = pa[i * K + k];
            const float* brow = pb + k * N;
            for (int64_t j = 0; j < N; ++j) {
                crow[j] += aik * brow[j];
            }
        }
    }
    return c;
}
"""

matmul_ext = load_inline(
    name="matmul_rowmajor_cpu",
    cpp_sources=matmul_source,
    functions=["matmul_rowmajor"],
    extra_cflags=["-O3"],
    verbose=False,
)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        A_t = A.T  # (M, K)
        return matmul_ext.matmul_rowmajor(A_t, B.contiguous())
